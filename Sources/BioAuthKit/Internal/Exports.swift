// The contract's wire types (User, Session, Registration, SignatureAlgorithm, ErrorCode, …) are
// part of BioAuthKit's API, and so is the crypto library BioAuthProtocol re-exports.
@_exported import BioAuthProtocol
