import Foundation

/// A file written in pieces next to where it goes, then renamed into place: a failed or refused export
/// leaves no file and never half of one, and a file that was there stays whole until the new one replaces it.
final class ExportFile {
    /// Where the file goes.
    let path: String
    /// The temporary file written meanwhile, in the same folder (a rename within one file system).
    private let temporary: String
    private var descriptor: Int32

    /// Creates the temporary file (mode 0666 less the umask, as a new file gets).
    init(path: String) throws {
        self.path = path
        let url = URL(fileURLWithPath: path)
        let folder = url.deletingLastPathComponent().path
        var attempt = 0
        while true {
            let name = ".\(url.lastPathComponent).burrow-\(String(UInt32.random(in: 0...UInt32.max), radix: 16))"
            let candidate = (folder as NSString).appendingPathComponent(name)
            let fd = open(candidate, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
            if fd >= 0 {
                temporary = candidate
                descriptor = fd
                return
            }
            attempt += 1
            guard errno == EEXIST, attempt < 100 else { throw ExportFile.failure(path, errno) }
        }
    }

    deinit { discard() }

    /// Appends `bytes` to the temporary file.
    func write(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { raw in
            var done = 0
            while done < raw.count {
                let n = Foundation.write(descriptor, raw.baseAddress! + done, raw.count - done)
                if n < 0 {
                    if errno == EINTR { continue }
                    throw ExportFile.failure(path, errno)
                }
                done += n
            }
        }
    }

    /// Puts the file in place: its bytes on disk first, so a crash leaves the old file or the new one whole.
    func commit() throws {
        guard descriptor >= 0 else { return }
        if fsync(descriptor) != 0 { throw ExportFile.failure(path, errno) }
        let closed = close(descriptor)
        descriptor = -1
        if closed != 0 || rename(temporary, path) != 0 {
            let code = errno
            unlink(temporary)
            throw ExportFile.failure(path, code)
        }
    }

    /// Removes the temporary file (nothing once committed).
    func discard() {
        guard descriptor >= 0 else { return }
        close(descriptor)
        descriptor = -1
        unlink(temporary)
    }

    private static func failure(_ path: String, _ code: Int32) -> UserError {
        UserError("cannot write \(path): \(String(cString: strerror(code)))")
    }
}
