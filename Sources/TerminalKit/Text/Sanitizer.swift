/// Makes untrusted text safe to draw: every code point a terminal would act on instead of show gets a visible
/// stand-in.
///
/// C0 controls and DEL become caret notation (`ESC` → `^[`, `BEL` → `^G`, `DEL` → `^?`); C1 controls, bidi
/// overrides and isolates and the line and paragraph separators become `<U+XXXX>`. A title holding
/// `"\u{1B}]0;pwned\u{07}"` is drawn as `^[]0;pwned^G`: it cannot set the window title, move the cursor or
/// write to the clipboard. Swift strings are always valid Unicode (invalid UTF-8 was already replaced by
/// U+FFFD when the string was made), so nothing else can reach a terminal.
///
/// For example: `Sanitizer.visible("a\tb")` is `"a^Ib"`.
public enum Sanitizer {
    /// The visible stand-in for `scalar`, or nil when it is safe to draw as itself.
    @inlinable
    public static func replacement(for scalar: Unicode.Scalar) -> String? {
        let v = scalar.value
        if v >= 0x20 && v < 0x7F { return nil }
        return slowReplacement(for: v)
    }

    @usableFromInline
    static func slowReplacement(for v: UInt32) -> String? {
        switch v {
        case 0x00..<0x20: return "^" + String(Character(Unicode.Scalar(UInt8(v + 0x40))))
        case 0x7F: return "^?"
        case 0x80...0x9F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069:
            let hex = String(v, radix: 16, uppercase: true)
            return "<U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + ">"
        default: return nil
        }
    }

    /// True when `text` holds nothing that needs a stand-in.
    public static func isSafe(_ text: some StringProtocol) -> Bool {
        text.unicodeScalars.allSatisfy { replacement(for: $0) == nil }
    }

    /// `text` with every unsafe code point replaced by its visible stand-in.
    public static func visible(_ text: some StringProtocol) -> String {
        visible(text, keepingLines: false)
    }

    /// The same for a `String`: called from other modules, the generic version runs unspecialized, and every
    /// frame sanitizes the breadcrumbs, the level's title and the status line.
    public static func visible(_ text: String) -> String {
        visible(text, keepingLines: false)
    }

    /// `text` as a command prints it to a terminal: like `visible`, but line feeds and tabs stay, as they
    /// only move the cursor on (a carriage return, which could overwrite a line, is made visible).
    public static func printable(_ text: some StringProtocol) -> String {
        visible(text, keepingLines: true)
    }

    private static func visible(_ text: some StringProtocol, keepingLines: Bool) -> String {
        // Printable ASCII needs nothing replaced: the common case, a status line every frame, checked by bytes.
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return String(text) }
        let kept = { (scalar: Unicode.Scalar) in keepingLines && (scalar == "\n" || scalar == "\t") }
        if text.unicodeScalars.allSatisfy({ replacement(for: $0) == nil || kept($0) }) { return String(text) }
        var out = ""
        out.reserveCapacity(text.utf8.count + 8)
        for scalar in text.unicodeScalars {
            if !kept(scalar), let r = replacement(for: scalar) { out += r } else { out.unicodeScalars.append(scalar) }
        }
        return out
    }
}
