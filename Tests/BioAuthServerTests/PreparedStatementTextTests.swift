@testable import BioAuthServer
import Testing

@Suite("Prepared statement texts")
struct PreparedStatementTextTests {
    /// Every text the server keeps prepared on PostgreSQL.
    static let all: [any PreparedStatementText.Type] = [
        RegistrationTable.ActiveOwnerEpoch.self, RegistrationTable.SigningKey.self, SessionTable.CallerByToken.self,
        SessionTable.CallerByLegacyToken.self, SignInCompletionStatement.self,
    ]

    @Test("each has its own name of at most 63 bytes, and declares a type for exactly the placeholders its text uses")
    func namesAndParameters() throws {
        let names = Self.all.map { $0.name }
        #expect(Set(names).count == names.count)
        for text in Self.all {
            #expect(text.name.utf8.count <= 63, "\(text.name)")
            let placeholders = Set(text.sql.matches(of: /\$([0-9]+)/).compactMap { Int($0.output.1) })
            #expect(placeholders == Set(1...text.parameters.count), "\(text.name)")
        }
    }
}
