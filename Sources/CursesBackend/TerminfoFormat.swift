/// Fills in a parameterized terminfo string (terminfo(5), "Parameterized Strings"): cursor addressing,
/// scroll regions, colours. ncurses' `tiparm` does the same into a buffer of its own, shared by the whole
/// process and unusable before a terminal is set up; this one keeps nothing and runs anywhere.
///
/// For example: `TerminfoFormat.apply("\u{1B}[%i%p1%d;%p2%dH", [4, 9])` is the bytes of `ESC [ 5 ; 10 H`.
enum TerminfoFormat {
    /// `capability` with `parameters` (up to nine numbers) filled in.
    static func apply(_ capability: String, _ parameters: [Int]) -> [UInt8] {
        let code = Array(capability.utf8)
        var params = parameters + Array(repeating: 0, count: max(0, 9 - parameters.count))
        var stack: [Int] = []
        var dynamic = [Int](repeating: 0, count: 26), fixed = [Int](repeating: 0, count: 26)
        var out: [UInt8] = []
        var i = 0
        func pop() -> Int { stack.popLast() ?? 0 }
        /// Skips from just after `%t` (or `%e`) to just after the matching `%e` (when `toElse`) or `%;`.
        func skip(toElse: Bool) {
            var depth = 0
            while i < code.count {
                if code[i] == UInt8(ascii: "%"), i + 1 < code.count {
                    let c = code[i + 1]
                    i += 2
                    switch c {
                    case UInt8(ascii: "?"): depth += 1
                    case UInt8(ascii: ";"):
                        if depth == 0 { return }
                        depth -= 1
                    case UInt8(ascii: "e") where depth == 0 && toElse: return
                    default: break
                    }
                } else {
                    i += 1
                }
            }
        }
        while i < code.count {
            let byte = code[i]
            guard byte == UInt8(ascii: "%"), i + 1 < code.count else {
                out.append(byte)
                i += 1
                continue
            }
            i += 1
            let c = code[i]
            i += 1
            switch c {
            case UInt8(ascii: "%"): out.append(UInt8(ascii: "%"))
            case UInt8(ascii: "p"):
                if i < code.count, (UInt8(ascii: "1")...UInt8(ascii: "9")).contains(code[i]) {
                    stack.append(params[Int(code[i] - UInt8(ascii: "1"))])
                    i += 1
                }
            case UInt8(ascii: "P"), UInt8(ascii: "g"):
                guard i < code.count else { break }
                let name = code[i]
                i += 1
                if (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(name) {
                    if c == UInt8(ascii: "P") {
                        dynamic[Int(name - UInt8(ascii: "a"))] = pop()
                    } else {
                        stack.append(dynamic[Int(name - UInt8(ascii: "a"))])
                    }
                } else if (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(name) {
                    if c == UInt8(ascii: "P") {
                        fixed[Int(name - UInt8(ascii: "A"))] = pop()
                    } else {
                        stack.append(fixed[Int(name - UInt8(ascii: "A"))])
                    }
                }
            case UInt8(ascii: "'"):
                if i < code.count { stack.append(Int(code[i])) }
                i += 2
            case UInt8(ascii: "{"):
                var n = 0
                while i < code.count, code[i] != UInt8(ascii: "}") {
                    if (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(code[i]) { n = n &* 10 &+ Int(code[i] - UInt8(ascii: "0")) }
                    i += 1
                }
                i += 1
                stack.append(n)
            case UInt8(ascii: "i"):
                params[0] += 1
                params[1] += 1
            case UInt8(ascii: "c"): out.append(UInt8(truncatingIfNeeded: pop()))
            case UInt8(ascii: "l"): stack.append(0)
            case UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "*"), UInt8(ascii: "/"), UInt8(ascii: "m"), UInt8(ascii: "&"),
                UInt8(ascii: "|"), UInt8(ascii: "^"), UInt8(ascii: "="), UInt8(ascii: ">"), UInt8(ascii: "<"), UInt8(ascii: "A"),
                UInt8(ascii: "O"):
                let b = pop(), a = pop()
                switch c {
                case UInt8(ascii: "+"): stack.append(a &+ b)
                case UInt8(ascii: "-"): stack.append(a &- b)
                case UInt8(ascii: "*"): stack.append(a &* b)
                case UInt8(ascii: "/"): stack.append(b == 0 ? 0 : a / b)
                case UInt8(ascii: "m"): stack.append(b == 0 ? 0 : a % b)
                case UInt8(ascii: "&"): stack.append(a & b)
                case UInt8(ascii: "|"): stack.append(a | b)
                case UInt8(ascii: "^"): stack.append(a ^ b)
                case UInt8(ascii: "="): stack.append(a == b ? 1 : 0)
                case UInt8(ascii: ">"): stack.append(a > b ? 1 : 0)
                case UInt8(ascii: "<"): stack.append(a < b ? 1 : 0)
                case UInt8(ascii: "A"): stack.append(a != 0 && b != 0 ? 1 : 0)
                default: stack.append(a != 0 || b != 0 ? 1 : 0)
                }
            case UInt8(ascii: "!"): stack.append(pop() == 0 ? 1 : 0)
            case UInt8(ascii: "~"): stack.append(~pop())
            case UInt8(ascii: "?"), UInt8(ascii: ";"): break
            case UInt8(ascii: "t"): if pop() == 0 { skip(toElse: true) }
            case UInt8(ascii: "e"): skip(toElse: false)
            default:
                // printf-like: %[[:]flags][width[.precision]][doxXs].
                i -= 1
                var flags: Set<UInt8> = []
                if code[i] == UInt8(ascii: ":") { i += 1 }
                while i < code.count, [UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "#"), UInt8(ascii: " ")].contains(code[i]) {
                    flags.insert(code[i])
                    i += 1
                }
                var width = 0, zero = false
                if i < code.count, code[i] == UInt8(ascii: "0") { zero = true }
                while i < code.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(code[i]) {
                    width = width * 10 + Int(code[i] - UInt8(ascii: "0"))
                    i += 1
                }
                var precision = 0
                if i < code.count, code[i] == UInt8(ascii: ".") {
                    i += 1
                    while i < code.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(code[i]) {
                        precision = precision * 10 + Int(code[i] - UInt8(ascii: "0"))
                        i += 1
                    }
                }
                guard i < code.count else { break }
                let conversion = code[i]
                i += 1
                let value = pop()
                var digits: String
                switch conversion {
                case UInt8(ascii: "o"): digits = String(value, radix: 8)
                case UInt8(ascii: "x"): digits = String(value, radix: 16)
                case UInt8(ascii: "X"): digits = String(value, radix: 16, uppercase: true)
                case UInt8(ascii: "d"), UInt8(ascii: "s"): digits = String(value)
                default: continue
                }
                if precision > digits.count { digits = String(repeating: "0", count: precision - digits.count) + digits }
                if flags.contains(UInt8(ascii: "+")), value >= 0, conversion == UInt8(ascii: "d") { digits = "+" + digits }
                if digits.count < width {
                    let pad = String(repeating: zero && !flags.contains(UInt8(ascii: "-")) ? "0" : " ", count: width - digits.count)
                    digits = flags.contains(UInt8(ascii: "-")) ? digits + pad : pad + digits
                }
                out += Array(digits.utf8)
            }
        }
        return out
    }
}
