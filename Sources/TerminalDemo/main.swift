// A tiny full-screen program for the terminal layer's end-to-end test: a text field, a list, a status bar.
// Type into the field, Enter adds the text to the list, ↑/↓ move, Ctrl-Q quits. The status bar names the last
// event in key notation, so the test can check what the terminal delivered.
import CursesBackend
import Foundation
import TerminalKit

let curses: CursesTerminal
do {
    curses = try CursesTerminal.start()
} catch {
    FileHandle.standardError.write(Data("terminal-demo: \(error)\n".utf8))
    exit(1)
}
let terminal = Terminal(backend: curses)
var field = TextField()
var items = ["plain item", "日本語のテキスト", "evil \u{1B}]0;pwned\u{07} \u{1B}[2J title", "café ☕ done"]
var list = ListState(selected: 0)
var last = "none"

@MainActor func render() {
    terminal.draw { frame in
        let (top, rest) = frame.area.splitTop(1)
        let (middle, bottom) = rest.splitBottom(1)
        frame.cursor = field.render(into: &frame.buffer, area: top, focused: true, placeholder: "type here")
        ListView(count: items.count).render(into: &frame.buffer, area: middle, state: &list) { row, buffer in
            buffer.write("\(row.index + 1). " + items[row.index], at: row.area.origin, maxWidth: row.area.width)
        }
        StatusBar(left: "last: \(last)", right: "\(frame.size.width)x\(frame.size.height)", style: Style(attributes: .reverse))
            .render(into: &frame.buffer, area: bottom)
    }
}

loop: while true {
    render()
    guard let event = curses.nextEvent(timeout: .milliseconds(100)) else { continue }
    switch event {
    case .key(let key):
        last = key.description
        switch key {
        case .ctrl("q"): break loop
        case .up: list.move(by: -1, count: items.count)
        case .down: list.move(by: 1, count: items.count)
        case .enter:
            if !field.isEmpty {
                items.append(field.text)
                field.setText("")
                list.select(items.count - 1, count: items.count)
            }
        default: _ = field.handle(key)
        }
    case .paste(let text):
        last = "paste(\(text.count))"
        field.insert(text)
    case .mouse(let m):
        last = "mouse(\(m.position.x),\(m.position.y))"
    case .resize(let size):
        last = "resize(\(size.width)x\(size.height))"
        terminal.invalidate()
    case .resumed:
        last = "resumed"
        terminal.invalidate()
    case .terminate(let signal):
        curses.stop(reraising: signal)
    }
}
curses.stop()
print("terminal-demo: bye")
