#include "redis/bytesformat.h"

#include <QStringDecoder>
#include <QStringList>

namespace LockScope {

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
