import BioAuthKit

/// Runs `body` and returns the ``BioAuthError`` it threw, or `nil` when it succeeded; anything
/// else it threw is ``BioAuthError/systemFailure(_:)``. (The server package's test support has the
/// same helper for the demo and the client's tests against a server: this package cannot depend
/// on it.)
func caught<T>(_ body: () async throws -> T) async -> BioAuthError? {
    do {
        _ = try await body()
        return nil
    } catch let error as BioAuthError {
        return error
    } catch {
        return .systemFailure("\(error)")
    }
}
