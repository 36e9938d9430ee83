import BurrowSettings
import Outline
import TerminalKit

/// `:`, the line a vim user reaches for to leave: `:q`, `:wq`, `:x` and their `!` and `a` forms quit (every
/// change is saved already, so `:w` only says so); `:agenda [DAYS]`, `:tag NAME` and `:find QUERY` open views,
/// `:save [NAME]` keeps the view on screen as an item; anything else is named as not a command instead of
/// being added as an item. Enter runs the line; Esc and Ctrl-G leave it (the editors' keys, `[keys.editors]`).
final class ExLine: Panel {
    private var field = TextField()

    /// The commands it knows, without their `!`.
    static let quitting: Set<String> = ["q", "qa", "qall", "quit", "wq", "wqa", "x", "xa", "exit"]
    static let writing: Set<String> = ["w", "wa", "write"]

    func handle(_ key: Key, in app: App) -> Bool {
        let command = app.keymap.command(for: key, in: .editor)
        switch command {
        case .confirm:
            run(field.text, in: app)
            return false
        case .cancel, .finish:
            return false
        default:
            // Backspace on an empty line leaves it, as in vim.
            if field.text.isEmpty && command == .deleteBackward { return false }
            _ = App.edit(&field, key, command, in: .editor)
            return true
        }
    }

    func paste(_ text: String, in app: App) { field.insert(text) }

    private func run(_ text: String, in app: App) {
        var name = text.trimmingCharacters(in: .whitespaces)
        if name.hasSuffix("!") { name.removeLast() }
        let words = text.trimmingCharacters(in: .whitespaces).split(separator: " ", maxSplits: 1).map(String.init)
        let rest = words.count > 1 ? words[1].trimmingCharacters(in: .whitespaces) : ""
        switch words.first ?? "" {
        case "agenda":
            guard let days = rest.isEmpty ? 7 : Int(rest), days >= 1, days <= 3660 else {
                app.status = .error("Not a number of days: :agenda 14")
                return
            }
            app.openAgenda(days: days)
            return
        case "tag":
            let tag = rest.hasPrefix("#") ? String(rest.dropFirst()) : rest
            guard Tag.problem(with: tag) == nil else {
                app.status = .error("Not a tag: :tag work")
                return
            }
            app.openQuery(#"tag:"\#(tag)""#, title: "#" + tag)
            return
        case "find", "filter":
            app.openQuery(rest)
            return
        case "save":
            app.saveView(named: rest)
            return
        default: break
        }
        if Self.quitting.contains(name) {
            app.quit()
        } else if Self.writing.contains(name) {
            app.status = .info("Every change is saved as it is made: nothing to write")
        } else if !name.isEmpty {
            let quit = app.keymap.label(for: .quit).map { ", as \($0) does" } ?? ""
            let add = app.keymap.label(for: .capture).map { "; \($0) adds an item" } ?? ""
            app.status = .error("Not a command: :\(Sanitizer.visible(name)) (:q quits\(quit)\(add))")
        }
    }

    func settle(_ layout: Layout, in app: App) {
        field.scrollToCursor(width: layout.captureField.width)
    }

    /// The line in the capture line's place, the level below it.
    func render(into frame: inout Frame, layout: Layout, in app: App) {
        frame.buffer.write(":", at: layout.capture.origin, style: app.theme.prompt)
        var copy = field
        frame.cursor = copy.render(into: &frame.buffer, area: layout.captureField, focused: true, placeholder: "")
        _ = app.renderLevel(into: &frame.buffer, area: layout.list)
        if let area = layout.details { app.detailsPane.render(into: &frame.buffer, area: area, theme: app.theme, timeZone: app.timeZone) }
    }

    func hint(in app: App) -> String { app.hints([(.confirm, "run"), (.cancel, "leave")], in: .editor) }

    var showsLevel: Bool { true }
}
