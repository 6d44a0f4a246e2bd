/// What a pinentry dialog shows of text that others choose: `DisplayText`'s escapes, runs of
/// whitespace together, cut to a budget of bytes, and how much of it that is.
extension DisplayText {
    /// How a dialog shows the line breaks of a text.
    package enum LineBreaks: Sendable {
        /// As escapes (`\n`, `\u{2028}`): a name, an address, an ID, which are one line.
        case escaped
        /// As ` ⏎ `, a run of them as one: a message, whose lines are its own.
        case marked
    }

    /// What a dialog shows of a text, and how much of it.
    package struct Preview: Equatable, Sendable {
        /// The text as shown: escaped, runs of whitespace as one space, cut with "…".
        package var text: String
        /// The bytes of the original text's UTF-8 that `text` stands for, and all of them: the
        /// same when nothing was cut (whitespace run together is not cut).
        package var shownBytes: Int
        package var totalBytes: Int

        package var isCut: Bool { shownBytes < totalBytes }

        /// " (147 of 4,000 bytes shown)" when cut, else nothing.
        package var cutNote: String {
            isCut ? " (\(DisplayText.grouped(shownBytes)) of \(DisplayText.grouped(totalBytes)) bytes shown)" : ""
        }
    }

    /// What a dialog shows of `text`: every character above escaped; runs of whitespace (and,
    /// with `.marked`, of line breaks) as one space (or one ` ⏎ `), none at either end, so
    /// that no padding pushes what follows to where the dialog wraps its line, to read as a
    /// line of its own; and cut, with "…", to at most `maxBytes` as pinentry receives them.
    /// The whole dialog text must fit in one Assuan line (1000 bytes after escaping, `%`
    /// taking three), so each part that others choose has a budget in those bytes. Counting
    /// characters would not do: one character can carry any number of combining marks.
    ///
    /// Only what can be shown is looked at: once the pieces cost more than `maxBytes`, the rest
    /// is not (a payload can be a megabyte), and its size is the UTF-8 count of `text`, which
    /// every scalar adds to whether shown, escaped or run together.
    package static func preview(_ text: String, maxBytes: Int, lineBreaks: LineBreaks = .escaped) -> Preview {
        let scalars = text.unicodeScalars
        // The pieces shown, each with the offset in `text`'s UTF-8 where what it stands for ends.
        var pieces: [(text: String, end: Int, isSpace: Bool)] = []
        var offset = 0, spent = 0
        var pendingSpace = false, pendingBreak = false
        var previous: Unicode.Scalar?
        var index = scalars.startIndex
        while index != scalars.endIndex, spent <= maxBytes {
            let scalar = scalars[index]
            let next = scalars.index(after: index)
            defer { (previous, index) = (scalar, next) }
            if lineBreaks == .marked, isLineBreak(scalar) {
                pendingBreak = true
            } else if scalar.properties.isWhitespace, !isLineBreak(scalar) {
                pendingSpace = true
            } else {
                if (pendingSpace || pendingBreak) && !pieces.isEmpty {
                    pieces.append((pendingBreak ? " ⏎ " : " ", offset, true))
                    spent += cost(pieces[pieces.count - 1].text)
                }
                pendingSpace = false
                pendingBreak = false
                offset += UTF8.width(scalar)
                // `escape` looks at the neighbours (quotes): these three are all it needs.
                let around = [previous, scalar, next == scalars.endIndex ? nil : scalars[next]]
                let escaped = escape(around.compactMap { $0 }, at: previous == nil ? 0 : 1)
                pieces.append((escaped ?? String(scalar), offset, false))
                spent += cost(pieces[pieces.count - 1].text)
                continue
            }
            offset += UTF8.width(scalar)
        }
        let totalBytes = text.utf8.count
        guard spent > maxBytes else {
            return Preview(text: pieces.map(\.text).joined(), shownBytes: totalBytes, totalBytes: totalBytes)
        }
        var used = cost("…")
        var kept = 0
        for piece in pieces {
            used += cost(piece.text)
            if used > maxBytes { break }
            kept += 1
        }
        // Not a space just before the ellipsis.
        if kept > 0, pieces[kept - 1].isSpace { kept -= 1 }
        return Preview(
            text: pieces[..<kept].map(\.text).joined() + "…", shownBytes: kept > 0 ? pieces[kept - 1].end : 0,
            totalBytes: totalBytes)
    }

    /// What `text` takes of an Assuan line: `%` is escaped as three bytes.
    package static func cost(_ text: String) -> Int {
        text.unicodeScalars.reduce(0) { $0 + ($1 == "%" ? 3 : UTF8.width($1)) }
    }

    /// `number` with a comma between each group of three digits: "4,000".
    package static func grouped(_ number: Int) -> String {
        (number < 0 ? "-" : "") + grouped(digits: String(number.magnitude))
    }

    /// Decimal `digits` (of any length: a 256-bit amount has 78) with a comma between each
    /// group of three: "1234567" is "1,234,567".
    package static func grouped(digits: some StringProtocol) -> String {
        var text = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { text.append(",") }
            text.append(digit)
        }
        return text
    }

    /// A count and its noun: "1 byte", "2 bytes", "1,024 transactions" (`many` when the plural
    /// is not the noun and an "s").
    package static func counted(_ count: Int, _ one: String, _ many: String? = nil) -> String {
        "\(grouped(count)) \(count == 1 ? one : many ?? one + "s")"
    }
}
