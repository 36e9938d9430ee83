import ObjectGraph

/// Store and validation errors, as one line for the user.
struct ObjectGraphFailure: Error {
    let message: String

    init?(_ error: any Error) {
        switch error {
        case let e as StoreError: message = e.description
        case let e as ValidationFailure: message = e.errors.map(\.description).joined(separator: "; ")
        case let e as UndoConflict: message = e.description
        default: return nil
        }
    }
}
