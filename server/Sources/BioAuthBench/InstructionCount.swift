import BioAuthTesting
import Foundation

/// The instructions the server executes per biometric sign-in, counted by valgrind's callgrind:
/// a figure that does not move with the machine's load or clock, so two builds compare from two
/// runs without alternating them.
///
/// The server runs under callgrind with instrumentation off until it has started and its devices
/// are enrolled; then warm-up sign-ins, then the costs are zeroed, then ``signIns`` sign-ins one
/// after the other over one connection, then the costs are dumped to ``profile`` (read it with
/// `callgrind_annotate`, or `scripts/callgrind-breakdown` for the parts).
package struct InstructionCount: Codable, Sendable {
    /// The sign-ins counted (challenge and completion each).
    package var signIns: Int
    /// Instructions the server executed over them.
    package var instructions: UInt64
    /// The callgrind dump of the counted sign-ins.
    package var profile: String

    /// Instructions per sign-in.
    package var perSignIn: Double { Double(instructions) / Double(max(signIns, 1)) }
}

/// Valgrind's callgrind around a server process.
enum Callgrind {
    /// Warm-up sign-ins before the count: the first requests fill caches and prepare statements.
    static let warmupSignIns = 50

    /// What launches `bioauth serve` under callgrind, writing its dumps to `folder/callgrind-<name>.out.N`,
    /// and the binary's stripped copy it runs (remove it after: the dumps hold the names).
    ///
    /// Valgrind 3.19 cannot read the debug information of a Swift build (it stops with "possibly
    /// corrupted debuginfo file"), so the server runs from a copy without it (`objcopy
    /// --strip-debug`); function names stay. `BIOAUTH_BENCH_VALGRIND_PRELOAD` names a library
    /// preloaded into the server (scripts/bench builds one: valgrind 3.19 writes into the mask a
    /// program hands to `sigsuspend`, which libdispatch keeps read-only, and crashes).
    static func launcher(folder: String, name: String) throws -> (launcher: [String], environment: [String: String], binary: String) {
        let stripped = URL(fileURLWithPath: folder).appendingPathComponent("bioauth-\(name)-nodebug").path
        try ShellCommand.run("objcopy --strip-debug \(quoted(BioAuthProcess.binary().path)) \(quoted(stripped))")
        let valgrind = [
            "valgrind", "--tool=callgrind", "--instr-atstart=no", "--quiet",
            "--callgrind-out-file=\(folder)/callgrind-\(name).out",
        ]
        // BioAuthProcess puts the build's binary after the launcher: the shell takes it as $0 and
        // runs the stripped copy instead.
        let script = "exec \(valgrind.map(quoted).joined(separator: " ")) \(quoted(stripped)) \"$@\""
        var environment: [String: String] = [:]
        if let preload = ProcessInfo.processInfo.environment["BIOAUTH_BENCH_VALGRIND_PRELOAD"], !preload.isEmpty {
            environment["LD_PRELOAD"] = preload
        }
        return (["/bin/sh", "-c", script], environment, stripped)
    }

    /// Sends `command` (`--instr=on`, `--zero`, `--dump`) to the callgrind process `pid`.
    static func control(_ command: String, pid: Int32) throws {
        try ShellCommand.run("callgrind_control \(command) \(pid) >/dev/null")
    }

    /// The instructions the dump at `path` counted: its `summary:` line (its `totals:` line, the sum
    /// of its cost lines, also files about 1.4 M under the functions running when the count began).
    static func totalInstructions(in path: String) throws -> UInt64 {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        for line in text.split(separator: "\n") where line.hasPrefix("summary:") {
            if let value = line.split(separator: " ").last.flatMap({ UInt64($0) }) { return value }
        }
        throw BenchFailure("no summary in callgrind's dump \(path)")
    }

    private static func quoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}

extension InstructionCount {
    /// One line: the figure and how it was counted.
    package var summary: String {
        "instructions per biometric sign-in (callgrind, \(signIns) sign-ins over one connection): "
            + String(format: "%.0f", perSignIn / 1_000) + " k (profile \(profile))"
    }
}
