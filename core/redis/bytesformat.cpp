#include "redis/bytesformat.h"

#include <QStringDecoder>
#include <QStringList>

namespace LockScope {

namespace {
int hexDigit(QChar c)
{
    const char16_t u = c.unicode();
    return u >= '0' && u <= '9' ? int(u - '0')
        : u >= 'a' && u <= 'f'  ? int(u - 'a' + 10)
        : u >= 'A' && u <= 'F'  ? int(u - 'A' + 10)
                                : -1;
}
} // namespace

QString escapeBytes(const QByteArray &bytes, int maxChars)
{
    QString out;
    out.reserve(bytes.size());
    const auto hex = [&out](unsigned char c) {
        out += QStringLiteral("\\x");
        out += QString::number(c, 16).rightJustified(2, QLatin1Char('0'));
    };
    int i = 0;
    while (i < bytes.size()) {
        if (maxChars >= 0 && out.size() >= maxChars) {
            out += QStringLiteral("…(%1 bytes)").arg(bytes.size());
            break;
        }
        const auto c = static_cast<unsigned char>(bytes.at(i));
        if (c == '\\') {
            out += QStringLiteral("\\\\");
            ++i;
        } else if (c >= 0x20 && c < 0x7f) {
            out += QLatin1Char(char(c));
            ++i;
        } else if (c >= 0x80) {
            // Accept one well-formed UTF-8 sequence, else escape the single byte.
            int len = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc2 ? 2 : 0;
            if (len && i + len <= bytes.size()) {
                QStringDecoder decoder(QStringDecoder::Utf8);
                const QString decoded = decoder(bytes.mid(i, len));
                // C1 controls (U+0080..U+009F) are well-formed UTF-8 yet no more printable than C0 ones: a terminal
                // may act on them (U+009B is CSI), so they are escaped like any other control byte.
                if (!decoder.hasError() && decoded.size() >= 1 && !decoded.contains(QChar::ReplacementCharacter)
                    && decoded.at(0).category() != QChar::Other_Control) {
                    out += decoded;
                    i += len;
                    continue;
                }
            }
            hex(c);
            ++i;
        } else {
            hex(c);
            ++i;
        }
    }
    return out;
}

QByteArray unescapeBytes(const QString &text)
{
    QByteArray out;
    QString plain; // runs of text between escapes, encoded as UTF-8 at once
    const auto flush = [&] {
        out += plain.toUtf8();
        plain.clear();
    };
    for (qsizetype i = 0; i < text.size(); ++i) {
        const QChar c = text.at(i);
        if (c == QLatin1Char('\\') && i + 1 < text.size() && text.at(i + 1) == QLatin1Char('\\')) {
            flush();
            out += '\\';
            ++i;
        } else if (c == QLatin1Char('\\') && i + 3 < text.size() && text.at(i + 1) == QLatin1Char('x')
            && hexDigit(text.at(i + 2)) >= 0 && hexDigit(text.at(i + 3)) >= 0) {
            flush();
            out += char(hexDigit(text.at(i + 2)) * 16 + hexDigit(text.at(i + 3)));
            i += 3;
        } else {
            plain += c;
        }
    }
    flush();
    return out;
}

std::optional<QByteArray> bytesFromHex(const QString &text)
{
    QString digits = text;
    digits.remove(QLatin1Char(' '));
    if (digits.isEmpty() || digits.size() % 2 != 0)
        return std::nullopt;
    for (const QChar c : std::as_const(digits))
        if (hexDigit(c) < 0)
            return std::nullopt;
    return QByteArray::fromHex(digits.toLatin1());
}

QString jsonText(const QByteArray &bytes)
{
    QString text = QString::fromUtf8(bytes);
    if (text.toUtf8() != bytes)
        return escapeBytes(bytes);
    return text;
}

QString escapeList(const QList<QByteArray> &names, int maxChars)
{
    QStringList out;
    for (const QByteArray &name : names)
        out << escapeBytes(name, maxChars);
    return out.join(QStringLiteral(", "));
}

} // namespace LockScope
