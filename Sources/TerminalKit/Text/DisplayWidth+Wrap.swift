extension DisplayWidth {
    /// `text` as lines of at most `width` cells: its own line breaks kept, long lines broken at the last
    /// space that fits (the spaces at a break are dropped), or anywhere in a word longer than the line,
    /// wide characters never split. Widths are those of the text as drawn (a control character takes its
    /// stand-in's width). A character wider than `width` alone gets a line of its own.
    ///
    /// For example: `DisplayWidth.wrap("buy oat milk", width: 7)` is `["buy oat", "milk"]`.
    public static func wrap(_ text: String, width: Int) -> [String] {
        guard width > 0 else { return [] }
        var out: [String] = []
        for line in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
            var chars: [Character] = []
            var widths: [Int] = []
            var used = 0
            /// Index in `chars` just after the last space: where the next line would start.
            var breakAfter: Int?
            var continuing = false

            func emit(_ n: Int) {
                var end = n
                while end > 0 && chars[end - 1] == " " { end -= 1 }
                out.append(String(chars[..<end]))
                var start = n
                // A continued line does not start with the spaces of the break.
                while start < chars.count && chars[start] == " " { start += 1 }
                chars.removeFirst(start)
                widths.removeFirst(start)
                used = widths.reduce(0, +)
                breakAfter = nil
                continuing = true
            }

            for c in line {
                let w = of(c)
                if c == " " {
                    if chars.isEmpty && continuing { continue }
                    if used + w > width {
                        emit(chars.count)
                        continue
                    }
                } else {
                    while used + w > width && !chars.isEmpty {
                        if let b = breakAfter, b < chars.count {
                            emit(b)
                        } else {
                            emit(chars.count)
                        }
                    }
                }
                chars.append(c)
                widths.append(w)
                used += w
                if c == " " { breakAfter = chars.count }
            }
            if !chars.isEmpty || !continuing {
                var end = chars.count
                while continuing && end > 0 && chars[end - 1] == " " { end -= 1 }
                out.append(String(chars[..<end]))
            }
        }
        return out
    }
}
