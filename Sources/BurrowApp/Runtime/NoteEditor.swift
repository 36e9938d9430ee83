import Foundation

/// Edits a note in the user's editor: `$VISUAL`, else `$EDITOR` (each may carry arguments, as shells allow:
/// `code --wait`), else `vi`, else `nano`, run on a temporary file that is removed afterwards. The caller
/// lends it the terminal (see `TerminalHandover`).
///
/// For example: `let text = try NoteEditor(environment: env).edit("Saturday")` returns what the user saved.
struct NoteEditor {
    /// The variables the editor is chosen from and runs with.
    let environment: [String: String]

    /// Why an edit gave no note; the note is unchanged in every case.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// The command line that will run, or nil when there is no editor at all.
    var command: String? {
        for name in ["VISUAL", "EDITOR"] {
            if let v = environment[name], !v.trimmingCharacters(in: .whitespaces).isEmpty { return v }
        }
        return ["vi", "nano"].first { NoteEditor.isInPath($0, environment["PATH"]) }
    }

    /// The note as the editor left the file, less one line break at the end (editors add one).
    func edit(_ note: String) throws -> String {
        guard let command else {
            throw Failure(description: "no editor to run: set $VISUAL or $EDITOR (neither vi nor nano was found)")
        }
        let dir = FileManager.default.temporaryDirectory
        let file = dir.appendingPathComponent("burrow-note-\(UUID().uuidString).md")
        let text = note.isEmpty || note.hasSuffix("\n") ? note : note + "\n"
        do {
            try Data(text.utf8).write(to: file, options: .withoutOverwriting)
        } catch {
            throw Failure(description: "cannot write the note for the editor to \(dir.path): \(error.localizedDescription)")
        }
        // A temporary file left behind (already gone, say) harms nothing: absent is fine.
        defer { try? FileManager.default.removeItem(at: file) }
        let status = try NoteEditor.run(["/bin/sh", "-c", command + " \"$1\"", "sh", file.path], environment: environment)
        guard status == 0 else {
            throw Failure(description: "the editor (\(command)) failed with status \(status)")
        }
        let data: Data
        do {
            data = try Data(contentsOf: file)
        } catch {
            throw Failure(description: "the editor (\(command)) left no file to read (\(error.localizedDescription))")
        }
        guard var edited = String(validating: data, as: UTF8.self) else {
            throw Failure(description: "the edited note is not UTF-8 text")
        }
        if edited.hasSuffix("\r\n") || edited.hasSuffix("\n") { edited.removeLast() }
        return edited
    }

    /// Runs `arguments` in the foreground and waits for it; its exit status (128 + n when a signal ended it).
    /// Its signal handlers start as the defaults, not as this program's.
    private static func run(_ arguments: [String], environment: [String: String]) throws -> Int32 {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for s in [SIGINT, SIGQUIT, SIGTERM, SIGHUP, SIGTSTP, SIGPIPE, SIGWINCH] { sigaddset(&defaults, s) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
        let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for p in argv + envp { free(p) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, arguments[0], nil, &attributes, argv, envp)
        guard spawned == 0 else {
            throw Failure(description: "cannot start the editor: \(String(cString: strerror(spawned)))")
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            guard errno == EINTR else { throw Failure(description: "lost the editor: \(String(cString: strerror(errno)))") }
        }
        // WIFEXITED / WEXITSTATUS / WTERMSIG, which Swift does not import (they are macros).
        let signal = status & 0x7F
        return signal == 0 ? (status >> 8) & 0xFF : 128 + signal
    }

    private static func isInPath(_ name: String, _ path: String?) -> Bool {
        (path ?? "/usr/bin:/bin").split(separator: ":").contains { FileManager.default.isExecutableFile(atPath: "\($0)/\(name)") }
    }
}
