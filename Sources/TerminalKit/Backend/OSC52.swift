/// The OSC 52 escape sequence, which asks the terminal to put text on the system clipboard:
/// `ESC ] 52 ; c ; <the text's UTF-8 in base64> ESC \`. Base64 leaves nothing in the text that could end the
/// sequence early; what the text says once pasted is the caller's to make safe.
///
/// For example: `OSC52.sequence("hi")` is `"\u{1B}]52;c;aGk=\u{1B}\\"`.
public enum OSC52 {
    /// The sequence that copies `text`.
    public static func sequence(_ text: String) -> String {
        "\u{1B}]52;c;" + base64(Array(text.utf8)) + "\u{1B}\\"
    }

    /// `bytes` in base64 with padding (RFC 4648), which terminals decode; TerminalKit does without Foundation.
    public static func base64(_ bytes: [UInt8]) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var i = 0
        while i < bytes.count {
            let n = min(3, bytes.count - i)
            let b0 = UInt32(bytes[i])
            let b1 = n > 1 ? UInt32(bytes[i + 1]) : 0
            let b2 = n > 2 ? UInt32(bytes[i + 2]) : 0
            let v = b0 << 16 | b1 << 8 | b2
            out.append(alphabet[Int(v >> 18 & 63)])
            out.append(alphabet[Int(v >> 12 & 63)])
            out.append(n > 1 ? alphabet[Int(v >> 6 & 63)] : UInt8(ascii: "="))
            out.append(n > 2 ? alphabet[Int(v & 63)] : UInt8(ascii: "="))
            i += 3
        }
        return String(decoding: out, as: UTF8.self)
    }
}
