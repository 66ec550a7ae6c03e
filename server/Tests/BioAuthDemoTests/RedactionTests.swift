import BioAuthDemo
import Foundation
import Testing

@Suite("Demo: redaction")
struct RedactionTests {
    @Test("tokens are abbreviated to eight and four characters; short values stay")
    func abbreviation() {
        let token = "bat_s4j2Jq0aZ7mVbT1xYy3kLp9QwErTyUiOpAsDfGhxgeM"
        #expect(Redaction.abbreviate(token) == "bat_s4j2…xgeM")
        #expect(Redaction.abbreviate("ES256") == "ES256")
    }

    @Test("bodies mask passwords and PINs, abbreviate secrets and fold nested objects")
    func bodies() throws {
        let body = try JSONSerialization.data(withJSONObject: [
            "password": "correct horse battery", "pin": "246810", "username": "alice",
            "session_token": "bat_s4j2Jq0aZ7mVbT1xYy3kLp9QwErTyUiOpAsDfGhxgeM", "user": ["id": "x"],
        ])
        let text = try #require(Redaction.summarize(body))
        #expect(text == #"{"password":"••••••","pin":"••••••","session_token":"bat_s4j2…xgeM","user":{…},"username":"alice"}"#)
    }

    @Test("long path segments (ids) are abbreviated")
    func paths() {
        #expect(
            Redaction.abbreviatePath("/v1/biometric/registrations/reg_30eb2e58ea2566fe9f7e81c8c7f00795/verify")
                == "/v1/biometric/registrations/reg_30eb…0795/verify"
        )
    }
}
