import BioAuthProtocol
import BioAuthWebAuthn
import Hummingbird

// The answers handlers return, written by the context's encoder (``BioAuthResponseEncoder``).
// BioAuthProtocol's types are the contract's, shared with clients that know nothing of
// Hummingbird, so their conformance is declared here.

extension AccessTokenResponse: @retroactive ResponseEncodable {}
extension AttestationChallengeResponse: @retroactive ResponseEncodable {}
extension AuditEventListResponse: @retroactive ResponseEncodable {}
extension Confirmation: @retroactive ResponseEncodable {}
extension ConfirmationList: @retroactive ResponseEncodable {}
extension CurrentSessionResponse: @retroactive ResponseEncodable {}
extension HealthResponse: @retroactive ResponseEncodable {}
extension RegistrationListResponse: @retroactive ResponseEncodable {}
extension RegistrationResponse: @retroactive ResponseEncodable {}
extension RegistrationStartResponse: @retroactive ResponseEncodable {}
extension SessionListResponse: @retroactive ResponseEncodable {}
extension UserResponse: @retroactive ResponseEncodable {}

extension PasskeyCeremonyResponse: ResponseEncodable {}
extension PasskeyListResponse: ResponseEncodable {}
extension PasskeyResponse: ResponseEncodable {}
extension RelatedOriginsResponse: ResponseEncodable {}
extension WebSessionResponse: ResponseEncodable {}
