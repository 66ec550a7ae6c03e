import Foundation

/// A running `bioauth` or `bioauth-dev` process, its output collected as it comes.
///
/// Tests launch the binaries the build made; `bioauth-dev bench` launches `bioauth serve` beside itself.
package final class BioAuthProcess: @unchecked Sendable {
    /// The build's programs.
    package enum Program: String, Sendable {
        /// The operator's command: serve, admin.
        case bioauth
        /// The developer's command: demo, bench.
        case developerTool = "bioauth-dev"
    }

    /// `program` in the build folder: the one this process runs from (a test bundle's, or the
    /// bench's), else the test bundle's parent.
    package static func binary(_ program: Program = .bioauth) -> URL {
        var folders: [URL] = []
        if let me = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            folders.append(URL(fileURLWithPath: me).deletingLastPathComponent())
        }
        let launched = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        folders += [launched, launched.deletingLastPathComponent()]
        let candidates = folders.map { $0.appendingPathComponent(program.rawValue) }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) } ?? candidates[0]
    }

    /// The process.
    package let process = Process()
    private let output = Pipe()
    private let errors = Pipe()
    private let lock = NSLock()
    private var stdoutData = Data()
    private var stderrData = Data()
    private var openPipes = 2  // each handler counts its pipe's end of file

    /// Starts `program arguments…` with this process's environment plus `environment`, through
    /// `launcher` when given (`["/usr/bin/prlimit", "--nofile=1024"]` runs it under that limit).
    /// Its standard error is collected unless `passStandardError` hands it to this process's.
    package init(
        _ arguments: [String],
        program: Program = .bioauth,
        environment: [String: String] = [:],
        launcher: [String] = [],
        passStandardError: Bool = false
    ) throws {
        if let wrapper = launcher.first {
            process.executableURL = URL(fileURLWithPath: wrapper)
            process.arguments = launcher.dropFirst() + [Self.binary(program).path] + arguments
        } else {
            process.executableURL = Self.binary(program)
            process.arguments = arguments
        }
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.standardOutput = output
        output.fileHandleForReading.readabilityHandler = { [weak self] handle in
            let data = handle.availableData
            if data.isEmpty { handle.readabilityHandler = nil }
            self?.lock.withLock {
                self?.stdoutData.append(data)
                if data.isEmpty { self?.openPipes -= 1 }
            }
        }
        if passStandardError {
            process.standardError = FileHandle.standardError
            openPipes = 1
        } else {
            process.standardError = errors
            errors.fileHandleForReading.readabilityHandler = { [weak self] handle in
                let data = handle.availableData
                if data.isEmpty { handle.readabilityHandler = nil }
                self?.lock.withLock {
                    self?.stderrData.append(data)
                    if data.isEmpty { self?.openPipes -= 1 }
                }
            }
        }
        try process.run()
    }

    /// Everything the process wrote to standard output so far.
    package var stdoutBytes: Data { lock.withLock { stdoutData } }
    /// Standard output so far, as text.
    package var stdout: String { String(decoding: stdoutBytes, as: UTF8.self) }
    /// Standard error so far, as text.
    package var stderr: String { String(decoding: lock.withLock { stderrData }, as: UTF8.self) }

    /// `bioauth serve` ended, or took too long, before it listened.
    package struct NotListening: Error, CustomStringConvertible {
        /// What the process said.
        package var description: String
    }

    /// Waits for `bioauth serve`'s "listening" line and returns the port it names.
    package func waitForPort(timeout: Duration = .seconds(30)) async throws -> Int {
        try await port(after: "BioAuth listening on http://", timeout: timeout)
    }

    /// Waits for `bioauth serve`'s "metrics on" line and returns the metrics listener's port.
    package func waitForMetricsPort(timeout: Duration = .seconds(30)) async throws -> Int {
        try await port(after: "BioAuth metrics on http://", timeout: timeout)
    }

    /// The port of the first `prefix` + `HOST:PORT` line on standard output, once it comes.
    private func port(after prefix: String, timeout: Duration) async throws -> Int {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if let line = stdout.split(separator: "\n").first(where: { $0.hasPrefix(prefix) }),
                let address = line.dropFirst(prefix.count).split(whereSeparator: { $0 == " " || $0 == "/" }).first,
                let port = address.split(separator: ":").last.flatMap({ Int($0) })
            {
                return port
            }
            guard process.isRunning else { break }
            try await Task.sleep(for: .milliseconds(20))
        }
        let status = process.isRunning ? "still running" : "exit \(process.terminationStatus)"
        throw NotListening(description: "bioauth serve did not start (\(status)): \(stderr.isEmpty ? stdout : stderr)")
    }

    /// Waits for the process to end (interrupting it after `timeout`) and returns its exit status.
    package func waitForExit(timeout: Duration = .seconds(30)) async throws -> Int32 {
        let deadline = ContinuousClock.now + timeout
        while process.isRunning, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(50))
        }
        if process.isRunning {
            process.interrupt()
            process.terminate()
        }
        while process.isRunning { try await Task.sleep(for: .milliseconds(10)) }
        // Its output up to the end of each pipe (a child it left running may hold one open).
        let drained = ContinuousClock.now + .seconds(30)
        while lock.withLock({ openPipes > 0 }), ContinuousClock.now < drained { try await Task.sleep(for: .milliseconds(10)) }
        return process.terminationStatus
    }

    /// Runs `program arguments…` to completion; its status and output.
    package static func run(
        _ arguments: [String],
        program: Program = .bioauth,
        environment: [String: String] = [:],
        timeout: Duration = .seconds(120)
    ) async throws -> (status: Int32, stdout: Data, stderr: String) {
        // Output goes to files, read whole once the process has ended: a pipe's reader may still
        // be behind when a busy machine ends the process.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bioauth-run-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let files = [folder.appendingPathComponent("stdout"), folder.appendingPathComponent("stderr")]
        for file in files { FileManager.default.createFile(atPath: file.path, contents: nil) }
        let process = Process()
        process.executableURL = binary(program)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.standardOutput = try FileHandle(forWritingTo: files[0])
        process.standardError = try FileHandle(forWritingTo: files[1])
        try process.run()
        let deadline = ContinuousClock.now + timeout
        while process.isRunning, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
        if process.isRunning { process.terminate() }
        while process.isRunning { try await Task.sleep(for: .milliseconds(10)) }
        return (process.terminationStatus, try Data(contentsOf: files[0]), String(decoding: try Data(contentsOf: files[1]), as: UTF8.self))
    }
}
