import Foundation
import Testing

@testable import OutlineServer

/// The digest's parts on their own: SHA-256 against FIPS 180-4's examples, and the digest's algebra.
@Suite struct OutlineDigestTests {
    static func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        (
            "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
        ),
        // 55, 56 and 64 bytes: the padding's edges.
        (String(repeating: "a", count: 55), "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318"),
        (String(repeating: "a", count: 56), "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a"),
        (String(repeating: "a", count: 64), "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb")
    ])
    func knownDigests(message: String, expected: String) {
        #expect(Self.hex(SHA256.hash(Array(message.utf8))) == expected)
    }

    @Test func aMillionAs() {
        #expect(
            Self.hex(SHA256.hash([UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)))
                == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test func theDigestSeesEveryFieldAndNoOrder() {
        let top = UUID()
        let a = ServerItem(id: UUID(), parent: top, ord: "a0", title: "A", note: nil, isDone: false)
        let b = ServerItem(id: UUID(), parent: a.id, ord: "a0", title: "B", note: "n", isDone: true)
        #expect(OutlineDigest([a, b]) == OutlineDigest([b, a]))
        #expect(OutlineDigest([a, b, ServerItem(id: top, parent: nil, ord: "a0", title: "")]) == OutlineDigest([a, b]))
        var both = OutlineDigest([a, b])
        both.toggle(b)
        #expect(both == OutlineDigest([a]), "toggling takes an item out")
        var changed: [ServerItem] = []
        for change in 0..<6 {
            var x = b
            switch change {
            case 0: x.parent = top
            case 1: x.ord = "a1"
            case 2: x.title = "B "
            case 3: x.note = nil
            case 4: x.note = ""
            default: x.isDone = false
            }
            changed.append(x)
            #expect(OutlineDigest([a, x]) != OutlineDigest([a, b]), "change \(change)")
        }
        // Texts are length-prefixed: moving bytes from one field to the next changes the hash.
        let split1 = ServerItem(id: a.id, parent: top, ord: "a0", title: "xy", note: "z")
        let split2 = ServerItem(id: a.id, parent: top, ord: "a0", title: "x", note: "yz")
        #expect(OutlineDigest.hash(split1) != OutlineDigest.hash(split2))
    }
}
