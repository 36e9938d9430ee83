/// An attribute name by its bytes in the document, hashed and compared by its text, for the duplicate
/// check of a start tag with many attributes. The document outlives the reader that holds these.
struct AttributeName: Hashable {
    let bytes: UnsafeBufferPointer<UInt8>

    init(_ document: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) {
        bytes = UnsafeBufferPointer(rebasing: document[range])
    }

    static func == (a: AttributeName, b: AttributeName) -> Bool {
        a.bytes.count == b.bytes.count && a.bytes.elementsEqual(b.bytes)
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(bytes: UnsafeRawBufferPointer(bytes))
    }
}
