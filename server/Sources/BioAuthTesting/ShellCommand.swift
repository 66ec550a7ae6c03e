import Foundation

/// A shell command line run to its end: the fault tests and the fault load break and heal a
/// database with one (`pg_ctl stop`, filling a disk).
package enum ShellCommand {
    /// The command failed to start or exited with a status other than 0.
    package struct Failure: Error, CustomStringConvertible {
        package var command: String
        package var waitStatus: Int32
        package var description: String { "`\(command)` failed (wait status \(waitStatus))" }
    }

    /// Runs `command` with `sh -c` and waits for it. Not with Foundation's `Process`: on Linux its
    /// `waitUntilExit()` at times never sees a quick child's exit (`pg_ctl start`'s shell stayed a
    /// zombie), so this spawns and waits itself.
    package static func run(_ command: String) throws {
        var pid: pid_t = 0
        let words: [String] = ["/bin/sh", "-c", command]
        let arguments: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) } + [nil]
        defer { for argument in arguments { free(argument) } }
        // The child gets standard input, output and error only: a daemon it starts (`pg_ctl start`)
        // would otherwise hold this process's sockets open for as long as it runs.
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        let open = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd"))?.compactMap { Int32($0) } ?? []
        for descriptor in open where descriptor > 2 { posix_spawn_file_actions_addclose(&actions, descriptor) }
        guard posix_spawn(&pid, "/bin/sh", &actions, nil, arguments, environ) == 0 else { throw Failure(command: command, waitStatus: -1) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1, errno == EINTR {}
        guard status == 0 else { throw Failure(command: command, waitStatus: status) }
    }
}
