import BioAuthProtocol
import Foundation
import NIOCore

/// The two answers of a biometric sign-in, written as JSON without Foundation's encoder: byte for
/// byte what ``WireJSON/makeEncoder()`` writes (keys sorted, `/` not escaped, `nil` members
/// left out), at a fraction of its cost. `HandWrittenJSONTests` holds the two to the same bytes
/// over random values; every other answer goes through the encoder.
enum HandWrittenJSON {
    /// `201` of `POST /v1/biometric/challenges`.
    static func challenge(_ response: ChallengeResponse) -> ByteBuffer {
        var json = Writer()
        json.open()
        json.member("challenge", response.challenge.base64URL)
        json.member("challenge_id", response.challengeID)
        json.member("expires_at", WireJSON.formatTimestamp(response.expiresAt))
        json.close()
        return json.buffer
    }

    /// `200` of the sign-ins: the token, the session and its user.
    static func signIn(_ response: SignInResponse) -> ByteBuffer {
        var json = Writer()
        json.open()
        json.key("session")
        json.session(response.session)
        json.member("session_token", response.sessionToken)
        json.key("user")
        json.open()
        json.member("created_at", WireJSON.formatTimestamp(response.user.createdAt))
        json.member("id", response.user.id)
        json.member("username", response.user.username)
        json.close()
        json.close()
        return json.buffer
    }

    /// Appends JSON to a buffer, one object member at a time; members must come in sorted order.
    private struct Writer {
        var buffer = ByteBufferAllocator().buffer(capacity: 768)  // a sign-in's answer, without growing
        private var needsComma = false

        mutating func open() {
            comma()
            buffer.writeInteger(UInt8(ascii: "{"))
            needsComma = false
        }

        mutating func close() {
            buffer.writeInteger(UInt8(ascii: "}"))
            needsComma = true
        }

        mutating func key(_ key: StaticString) {
            comma()
            buffer.writeInteger(UInt8(ascii: "\""))
            buffer.writeStaticString(key)
            buffer.writeStaticString("\":")
            needsComma = false
        }

        mutating func member(_ key: StaticString, _ value: String) {
            self.key(key)
            string(value)
            needsComma = true
        }

        mutating func session(_ session: Session) {
            open()
            member("authenticated_at", WireJSON.formatTimestamp(session.authenticatedAt))
            key("authentication")
            open()
            member("method", session.authentication.method.rawValue)
            if let passkeyID = session.authentication.passkeyID { member("passkey_id", passkeyID) }
            if let registrationID = session.authentication.registrationID { member("registration_id", registrationID) }
            close()
            member("created_at", WireJSON.formatTimestamp(session.createdAt))
            member("expires_at", WireJSON.formatTimestamp(session.expiresAt))
            key("factors")
            buffer.writeInteger(UInt8(ascii: "["))
            needsComma = false
            for factor in session.factors {
                comma()
                string(factor.rawValue)
                needsComma = true
            }
            buffer.writeInteger(UInt8(ascii: "]"))
            needsComma = true
            member("id", session.id)
            if session.passwordChangeRequired {
                key("password_change_required")
                buffer.writeStaticString("true")
                needsComma = true
            }
            if let stepUpAt = session.stepUpAt { member("step_up_at", WireJSON.formatTimestamp(stepUpAt)) }
            member("user_id", session.userID)
            close()
        }

        private mutating func comma() {
            if needsComma { buffer.writeInteger(UInt8(ascii: ",")) }
        }

        /// A JSON string as Foundation's encoder writes it: `"` and `\` escaped, the control
        /// characters as `\b \f \n \r \t` or `\u00XX`, everything else (`/` and non-ASCII too) as it is.
        private mutating func string(_ text: String) {
            buffer.writeInteger(UInt8(ascii: "\""))
            // Identifiers, tokens and timestamps need no escape: written whole, not byte by byte.
            if !text.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
                buffer.writeString(text)
                buffer.writeInteger(UInt8(ascii: "\""))
                return
            }
            for byte in text.utf8 {
                switch byte {
                case UInt8(ascii: "\""): buffer.writeStaticString("\\\"")
                case UInt8(ascii: "\\"): buffer.writeStaticString("\\\\")
                case 0x08: buffer.writeStaticString("\\b")
                case 0x0C: buffer.writeStaticString("\\f")
                case UInt8(ascii: "\n"): buffer.writeStaticString("\\n")
                case UInt8(ascii: "\r"): buffer.writeStaticString("\\r")
                case UInt8(ascii: "\t"): buffer.writeStaticString("\\t")
                case 0..<0x20:
                    buffer.writeStaticString("\\u00")
                    buffer.writeInteger(Self.hexDigits[Int(byte >> 4)])
                    buffer.writeInteger(Self.hexDigits[Int(byte & 0x0F)])
                default: buffer.writeInteger(byte)
                }
            }
            buffer.writeInteger(UInt8(ascii: "\""))
        }

        private static let hexDigits = Array("0123456789abcdef".utf8)
    }
}
