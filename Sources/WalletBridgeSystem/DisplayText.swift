/// Text that others choose (an extension's installed name and its ID, what it says about
/// itself, a method's name, a page's message or typed data) as a person is shown it: in a
/// pinentry dialog (`DisplayText.preview`, in the wallet), on a terminal by `wallet-bridge log`
/// and `sessions list`, and in the log lines that name a caller or a method (`Log`). One form
/// for all, so that what a person learns to read in one holds in the others.
///
/// Nothing in such text may start a line, move the cursor, reorder what follows, hide itself or
/// end the quotes it is shown in. Those characters are written as escapes a person can see:
///
/// - `\n`, `\r` and `\t` for those three, and `\u{XXXX}` (the code point, in hex) for every
///   other control or format character (Cc, Cf: a terminal's ESC and the C1 controls, bidi
///   overrides, embeddings, isolates and marks, zero-width and invisible characters), for the
///   line and paragraph separators (Zl, Zp: U+2028, U+2029, which GTK breaks lines at, like VT,
///   FF and NEL, which are Cc) and for the other invisible, default-ignorable characters (a
///   Hangul filler). Variation selectors are left alone: they only choose an emoji's look;
/// - a backslash before the backslash itself and before every mark that reads as the double
///   quote that frames such text (`"`, `“ ” „ ‟ « » ＂ ″ 〝 〞 ʺ`…), and before single quotes that
///   stand next to another quote mark (`''` reads as `"`). An apostrophe alone is left alone.
///
/// Why a backslash: it is how an escape is already read (git, JSON, a shell), it is ASCII and
/// shows in every font, the character it marks stays visible (a name with a quote in it still
/// reads as itself), and with the backslash itself escaped, no text can make an escape that
/// was not there. A `?` in place of the character hid what it was and looked like a real one;
/// a look-alike would not be visible at all.
package enum DisplayText {
    /// `text` for a terminal: every character above escaped; nothing else changed, nothing
    /// cut. `--json` output never goes through this: it stays exact. With `quotes: false`
    /// (log lines, which frame nothing in quotes and quote their own words) quotes and the
    /// backslash are left alone.
    package static func escaped(_ text: String, quotes: Bool = true) -> String {
        let scalars = Array(text.unicodeScalars)
        var shown = String.UnicodeScalarView()
        for index in scalars.indices {
            if let escape = quotes ? escape(scalars, at: index) : hiddenEscape(scalars[index]) {
                shown.append(contentsOf: escape.unicodeScalars)
            } else {
                shown.append(scalars[index])
            }
        }
        return String(shown)
    }

    // MARK: Which characters

    /// The escape shown for `scalars[index]`, or nil when it is shown as itself. Its
    /// neighbours matter for single quotes.
    package static func escape(_ scalars: [Unicode.Scalar], at index: Int) -> String? {
        let scalar = scalars[index]
        if scalar == "\\" { return "\\\\" }
        if doubleQuotes.contains(scalar.value) { return "\\" + String(scalar) }
        if singleQuotes.contains(scalar.value) {
            let before = index > 0 && isQuote(scalars[index - 1])
            let after = index + 1 < scalars.count && isQuote(scalars[index + 1])
            return before || after ? "\\" + String(scalar) : nil
        }
        return hiddenEscape(scalar)
    }

    /// `\n`, `\r`, `\t` or `\u{XXXX}` for a hidden character (`isHidden`), else nil.
    static func hiddenEscape(_ scalar: Unicode.Scalar) -> String? {
        switch scalar {
        case "\n": "\\n"
        case "\r": "\\r"
        case "\t": "\\t"
        default: isHidden(scalar) ? "\\u{\(String(scalar.value, radix: 16, uppercase: true))}" : nil
        }
    }

    /// Unicode's mandatory line breaks (UAX #14 classes BK, CR, LF, NL): LF, VT, FF, CR, NEL,
    /// and the line and paragraph separators.
    package static func isLineBreak(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0A...0x0D, 0x85, 0x2028, 0x2029: true
        default: false
        }
    }

    /// A character that does something other than show itself: a control or format character,
    /// a separator, or one that renders as nothing.
    package static func isHidden(_ scalar: Unicode.Scalar) -> Bool {
        // ASCII without Unicode's tables, which every log line would otherwise look up.
        if scalar.isASCII { return scalar.value < 0x20 || scalar.value == 0x7F }
        return switch scalar.properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator: true
        // Variation selectors and the combining grapheme joiner: they change how the character
        // before them looks, and cannot move or hide text.
        case .nonspacingMark: false
        default: scalar.properties.isDefaultIgnorableCodePoint
        }
    }

    static func isQuote(_ scalar: Unicode.Scalar) -> Bool {
        doubleQuotes.contains(scalar.value) || singleQuotes.contains(scalar.value)
    }

    /// Marks that read as a double quote: ASCII's, the typographic ones, guillemets, the
    /// fullwidth one, primes and modifier letters that look like it, CJK and ornamental ones.
    static let doubleQuotes: Set<UInt32> = [
        0x22, 0xAB, 0xBB, 0x2BA, 0x2DD, 0x2EE, 0x5F4, 0x201C, 0x201D, 0x201E, 0x201F, 0x2033, 0x2036, 0x275D, 0x275E,
        0x2E42, 0x3003, 0x301D, 0x301E, 0x301F, 0xFF02, 0x1F676, 0x1F677, 0x1F678,
    ]

    /// Single quote marks and their look-alikes: escaped only beside another quote mark.
    static let singleQuotes: Set<UInt32> = [
        0x27, 0x60, 0xB4, 0x2B9, 0x2BB, 0x2BC, 0x2BD, 0x2018, 0x2019, 0x201A, 0x201B, 0x2032, 0x2035, 0x2039, 0x203A,
        0xFF07,
    ]
}
