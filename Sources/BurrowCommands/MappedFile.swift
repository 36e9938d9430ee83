import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A file mapped read-only into memory, for reading a big file once without holding it: its pages can be
/// given back as they are read (`OPML.read(bytes:mappedFromFile:each:)`). Unmapped when it goes.
final class MappedFile {
    let bytes: UnsafeRawBufferPointer

    /// Maps `path`; nil when it cannot be mapped (empty, not a regular file), so the caller reads it.
    init?(path: String) {
        #if canImport(Glibc)
            let fd = open(path, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { return nil }
            defer { Glibc.close(fd) }
            var st = stat()
            guard fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG, st.st_size > 0 else { return nil }
            let size = Int(st.st_size)
            guard let p = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0), p != MAP_FAILED else { return nil }
            bytes = UnsafeRawBufferPointer(start: p, count: size)
        #else
            return nil
        #endif
    }

    /// Gives the pages read so far back to the kernel (read again from the file if touched): once its text
    /// is copied into a string, the file need not stay resident too.
    func releasePages() {
        #if canImport(Glibc)
            if let base = bytes.baseAddress { madvise(UnsafeMutableRawPointer(mutating: base), bytes.count, MADV_DONTNEED) }
        #endif
    }

    deinit {
        #if canImport(Glibc)
            if let base = bytes.baseAddress { munmap(UnsafeMutableRawPointer(mutating: base), bytes.count) }
        #endif
    }
}
