// On Apple platforms CryptoKit; elsewhere swift-crypto, its API-compatible stand-in.
#if canImport(CryptoKit)
@_exported import CryptoKit
#else
@_exported import Crypto
#endif
