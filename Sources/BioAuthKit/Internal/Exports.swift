// The contract's wire types (User, Session, Registration, SignatureAlgorithm, ErrorCode, …) are
// part of BioAuthKit's API. CryptoKit is not: an app imports it itself if it wants it.
@_exported import BioAuthProtocol
