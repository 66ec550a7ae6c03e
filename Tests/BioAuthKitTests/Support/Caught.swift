import BioAuthKit

/// Runs `body` and returns the ``BioAuthError`` it threw, or `nil` when it succeeded: how the
/// demo and the Kit's tests say what an app call came to. Anything else it threw is reported as
/// ``BioAuthError/systemFailure(_:)``. (The server package's BioAuthTesting compiles this file
/// too, through a link: the packages share no target.)
package func caught<T>(_ body: () async throws -> T) async -> BioAuthError? {
    do {
        _ = try await body()
        return nil
    } catch let error as BioAuthError {
        return error
    } catch {
        return .systemFailure("\(error)")
    }
}
