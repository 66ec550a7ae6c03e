import Logging

extension AccessTokenService {
    /// The service `configuration` asks for over `database`: its issuer, audiences, lifetime and
    /// algorithm, with the fleet's signing keys sealed by `wrap`.
    init(
        configuration: ServerConfiguration,
        database: any DatabaseProvider,
        time: TimeSource,
        wrap: SigningKeyWrap,
        passkeysVerifyUser: Bool,
        logger: Logger
    ) {
        self.init(
            time: time,
            keys: SigningKeyStore(
                database: database,
                wrap: wrap,
                time: time,
                algorithm: configuration.accessTokenAlgorithm,
                rotation: configuration.signingKeyRotation,
                logger: logger
            ),
            issuer: configuration.accessTokenIssuer,
            audiences: configuration.accessTokenAudienceList,
            lifetime: configuration.accessTokenLifetime,
            passkeysVerifyUser: passkeysVerifyUser
        )
    }
}
