/// A line for the status bar: what just happened, or what went wrong.
struct StatusMessage: Equatable {
    let text: String
    let isError: Bool

    static func info(_ text: String) -> StatusMessage { StatusMessage(text: text, isError: false) }
    static func error(_ text: String) -> StatusMessage { StatusMessage(text: text, isError: true) }
}
