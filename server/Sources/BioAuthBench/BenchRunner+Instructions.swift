import BioAuthProtocol
import BioAuthTesting
import Foundation

extension BenchRunner {
    /// Counts the server's instructions per biometric sign-in on `database` (``InstructionCount``):
    /// a server under callgrind over the first growth size's accounts, sign-ins one at a time.
    package func countInstructions(on database: BenchOptions.Database) async throws -> InstructionCount {
        let name = database.name
        let count = options.instructionSignIns
        let folder = options.profileDirectory ?? FileManager.default.temporaryDirectory.path
        return try await withScratchDatabase(database, "instructions") { location in
            _ = try await seed(location, accounts: options.growth.first ?? 1_000, label: "[\(name)] seeding for the instruction count")
            let (launcher, environment, binary) = try Callgrind.launcher(folder: folder, name: name)
            defer { try? FileManager.default.removeItem(atPath: binary) }
            progress.note("[\(name)] starting the server under callgrind")
            let server = try await ServerProcess.start(
                database: location,
                arguments: serverArguments(for: database),
                launcher: launcher,
                environment: environment
            )
            do {
                let devices = try await enroll(server).devices
                try Callgrind.control("-i on", pid: server.pid)
                progress.note("[\(name)] \(Callgrind.warmupSignIns) warm-up sign-ins, then \(count) counted, under callgrind")
                try await signIns(Callgrind.warmupSignIns, devices, server)
                try Callgrind.control("-z", pid: server.pid)
                try await signIns(count, devices, server)
                try Callgrind.control("-d", pid: server.pid)
                await server.stop()
                let profile = "\(folder)/callgrind-\(name).out.1"
                return InstructionCount(signIns: count, instructions: try Callgrind.totalInstructions(in: profile), profile: profile)
            } catch {
                await server.stop()
                throw error
            }
        }
    }

    /// `count` biometric sign-ins one after the other over one connection, each with the next device.
    private func signIns(_ count: Int, _ devices: [BenchDevice], _ server: ServerProcess) async throws {
        let signIn = biometricSignIn(devices)
        try await HTTPConnection.with(host: server.host, port: server.port) { http in
            for iteration in 0..<count { try await signIn(0, iteration, http) }
        }
    }
}
