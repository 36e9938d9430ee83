import Foundation

/// Runs a program and waits for it with `waitpid`, optionally reading its standard output.
///
/// Foundation's `Process` on Linux learns that a child ended from a descriptor the child inherits; tmux's
/// server daemon keeps that descriptor open, so `waitUntilExit` never returns for `tmux new-session`.
enum Spawn {
    struct Failure: Error, CustomStringConvertible {
        let what: String
        var description: String { what }
    }

    /// Runs `arguments[0]` (looked up in `PATH`) and returns its exit status and, if asked, its output.
    static func run(_ arguments: [String], captureOutput: Bool) throws -> (status: Int32, output: String) {
        var pipe: [Int32] = [-1, -1]
        if captureOutput { guard Glibc.pipe(&pipe) == 0 else { throw Failure(what: "pipe failed") } }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        if captureOutput {
            posix_spawn_file_actions_adddup2(&actions, pipe[1], 1)
            posix_spawn_file_actions_addclose(&actions, pipe[0])
            posix_spawn_file_actions_addclose(&actions, pipe[1])
        } else {
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        }
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        // Start the child as a shell would: no signal blocked, none ignored (test threads block most signals,
        // and a blocked mask is inherited across exec).
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t(), all = sigset_t()
        sigemptyset(&none)
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for p in argv { free(p) } }
        var pid: pid_t = 0
        let spawned = posix_spawnp(&pid, arguments[0], &actions, &attributes, &argv, environ)
        if captureOutput { close(pipe[1]) }
        guard spawned == 0 else {
            if captureOutput { close(pipe[0]) }
            throw Failure(what: "cannot run \(arguments[0]): error \(spawned)")
        }
        var output = Data()
        if captureOutput {
            var chunk = [UInt8](repeating: 0, count: 65536)
            while true {
                let n = read(pipe[0], &chunk, chunk.count)
                if n > 0 { output.append(contentsOf: chunk[..<n]) } else if n == 0 || errno != EINTR { break }
            }
            close(pipe[0])
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        let exitStatus = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        return (exitStatus, String(decoding: output, as: UTF8.self))
    }
}
