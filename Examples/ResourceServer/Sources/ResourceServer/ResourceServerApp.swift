import Foundation
import Hummingbird
import Logging

/// Starts the backend: `resource-server --issuer URL --audience AUDIENCE …` (``Configuration``).
/// Prints `resource-server listening on http://HOST:PORT` once it accepts connections. It never
/// logs a token.
@main
struct ResourceServerApp {
    static func main() async throws {
        let configuration: Configuration
        do {
            configuration = try Configuration(arguments: Array(CommandLine.arguments.dropFirst()))
        } catch {
            FileHandle.standardError.write(Data("resource-server: \(error)\n".utf8))
            exit(64)
        }
        var logger = Logger(label: "resource-server")
        logger.logLevel = .info
        let fetcher = KeySetFetcher(issuer: configuration.issuer, jwksURL: configuration.jwksURL)
        let keySet = KeySet(fetcher: fetcher, refetchInterval: configuration.keyRefetchInterval, logger: logger)
        let verifier = TokenVerifier(keySet: keySet, issuer: configuration.issuer, audience: configuration.audience, leeway: configuration.leeway)
        let router = Router()
        BankRoutes(verifier: verifier, stepUp: StepUpPolicy(maxAge: configuration.stepUpMaxAge, leeway: configuration.leeway))
            .add(to: router)
        let application = Application(
            router: router,
            configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "resource-server"),
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? configuration.port
                FileHandle.standardOutput.write(Data("resource-server listening on http://\(configuration.host):\(port)\n".utf8))
            },
            logger: logger
        )
        try await application.runService()
    }
}
