import CCMarkGFM

/// cmark-gfm's parser as CommonMark with GitHub's task lists, fed a piece at a time. Between feeds its
/// document can be read: a closed block is final (cmark reads a line at a time and never reopens a block), so
/// it can be read and freed while the rest is still to come. Freed with its document.
final class MarkdownParser {
    private let parser: UnsafeMutablePointer<cmark_parser>?

    init() {
        parser = cmark_parser_new(CMARK_OPT_DEFAULT)
        if let tasklist = Self.tasklist.extension { cmark_parser_attach_syntax_extension(parser, tasklist) }
    }

    deinit { cmark_parser_free(parser) }

    /// Parses the next bytes (a piece may end anywhere, inside a line or between CR and LF).
    func feed(_ bytes: UnsafeBufferPointer<UInt8>) {
        bytes.withMemoryRebound(to: CChar.self) { cmark_parser_feed(parser, $0.baseAddress, $0.count) }
    }

    /// The document so far: its blocks that are not open are final.
    var root: MarkdownDocument.Node { ccmark_parser_root(parser) }

    /// Ends the text, closing every block: the whole document, now the caller's to free.
    func finish() -> MarkdownDocument.Node { cmark_parser_finish(parser) }

    /// The task list extension, found once: cmark-gfm's registration of its extensions is not thread-safe,
    /// and a `static let` runs its initializer exactly once whatever the threads.
    static let tasklist = Extension("tasklist")

    /// A registered syntax extension. `@unchecked Sendable` because it holds a C pointer, which Swift cannot
    /// check: it is safe to share because the extension it points to lives in cmark-gfm's global registry,
    /// which is written once (inside the `static let` above) and only read and never freed afterwards; parsers
    /// on several threads only read it (`MarkdownTests.parsersOnSeveralThreadsAgree`).
    struct Extension: @unchecked Sendable {
        let `extension`: OpaquePointer?

        init(_ name: String) {
            cmark_gfm_core_extensions_ensure_registered()
            self.extension = cmark_find_syntax_extension(name)
        }
    }
}
