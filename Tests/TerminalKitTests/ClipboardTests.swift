import Testing

@testable import TerminalKit

/// OSC 52: the text's UTF-8 in base64 between `ESC ] 52 ; c ;` and `ESC \`, and the test backend's record of it.
@Suite struct ClipboardTests {
    @Test func base64AsRFC4648Says() {
        let vectors = ["": "", "f": "Zg==", "fo": "Zm8=", "foo": "Zm9v", "foob": "Zm9vYg==", "fooba": "Zm9vYmE=", "foobar": "Zm9vYmFy"]
        for (text, encoded) in vectors { #expect(OSC52.base64(Array(text.utf8)) == encoded, "\(text)") }
        #expect(OSC52.base64([0xFF, 0xFE, 0x00]) == "//4A")
        #expect(OSC52.base64(Array("é日".utf8)) == "w6nml6U=")
    }

    @Test func theSequenceCarriesNothingThatCouldEndItEarly() {
        #expect(OSC52.sequence("hi") == "\u{1B}]52;c;aGk=\u{1B}\\")
        let hostile = OSC52.sequence("a\u{1B}\\b\u{07}c\u{9C}")
        let body = hostile.dropFirst("\u{1B}]52;c;".count).dropLast(2)
        #expect(body.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "+/=".contains($0)) })
    }

    @Test func theTestBackendRecordsWhatItWouldSend() {
        let backend = TestBackend(width: 10, height: 2)
        backend.copyToClipboard("one")
        backend.copyToClipboard("two")
        #expect(backend.clipboard == ["one", "two"])
        #expect(backend.clipboardBytes == Array((OSC52.sequence("one") + OSC52.sequence("two")).utf8))
        #expect(backend.screen == Buffer(size: Size(width: 10, height: 2)), "the screen is untouched")
    }
}
