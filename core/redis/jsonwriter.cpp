#include "redis/jsonwriter.h"

#include <QLocale>

#include <cmath>

#include "redis/bytesformat.h"

namespace LockScope {

namespace {
char hexDigit(unsigned value)
{
    return char(value < 10 ? '0' + value : 'a' + value - 10);
}

bool isAscii(const QByteArray &bytes)
{
    for (const char c : bytes) {
        if (static_cast<unsigned char>(c) >= 0x80)
            return false;
    }
    return true;
}
} // namespace

void JsonWriter::separate()
{
    if (!m_first)
        m_out->append(',');
    m_first = false;
}

void JsonWriter::beginObject()
{
    separate();
    m_out->append('{');
    m_first = true;
}

void JsonWriter::endObject()
{
    m_out->append('}');
    m_first = false;
}

void JsonWriter::beginArray()
{
    separate();
    m_out->append('[');
    m_first = true;
}

void JsonWriter::endArray()
{
    m_out->append(']');
    m_first = false;
}

JsonWriter &JsonWriter::key(const char *latin1Key)
{
    separate();
    m_out->append('"').append(latin1Key).append("\":");
    m_first = true; // the value that follows takes no comma
    return *this;
}

// Qt's escapes: the quote, the backslash, the short forms of five controls, \u00xx for the other controls (lowercase
// hex); every other byte, UTF-8 included, as it is.
void JsonWriter::escaped(const char *data, qsizetype size)
{
    m_out->append('"');
    qsizetype plainFrom = 0;
    for (qsizetype i = 0; i < size; ++i) {
        const auto c = static_cast<unsigned char>(data[i]);
        if (c >= 0x20 && c != '"' && c != '\\')
            continue;
        m_out->append(data + plainFrom, i - plainFrom);
        plainFrom = i + 1;
        switch (c) {
        case '"':
            m_out->append("\\\"");
            break;
        case '\\':
            m_out->append("\\\\");
            break;
        case '\b':
            m_out->append("\\b");
            break;
        case '\f':
            m_out->append("\\f");
            break;
        case '\n':
            m_out->append("\\n");
            break;
        case '\r':
            m_out->append("\\r");
            break;
        case '\t':
            m_out->append("\\t");
            break;
        default: {
            const char u[] = { '\\', 'u', '0', '0', hexDigit(c >> 4), hexDigit(c & 0xf) };
            m_out->append(u, sizeof u);
        }
        }
    }
    m_out->append(data + plainFrom, size - plainFrom);
    m_out->append('"');
}

void JsonWriter::bytes(const QByteArray &value)
{
    separate();
    // Most names and owners are ASCII, which is valid UTF-8 as it stands: no conversion needed to know it.
    if (isAscii(value)) {
        escaped(value.constData(), value.size());
        return;
    }
    const QByteArray utf8 = jsonText(value).toUtf8();
    escaped(utf8.constData(), utf8.size());
}

void JsonWriter::latin1(const char *text)
{
    separate();
    escaped(text, qsizetype(qstrlen(text)));
}

void JsonWriter::text(const QString &text)
{
    separate();
    const QByteArray utf8 = text.toUtf8();
    escaped(utf8.constData(), utf8.size());
}

void JsonWriter::real(double value)
{
    if (value == double(qint64(value)) && std::abs(value) < 1e15) {
        number(qint64(value));
        return;
    }
    separate();
    m_out->append(QByteArray::number(value, 'g', QLocale::FloatingPointShortest));
}

void JsonWriter::number(qint64 value)
{
    separate();
    char digits[24];
    char *end = digits + sizeof digits;
    char *p = end;
    quint64 magnitude = value < 0 ? 0 - quint64(value) : quint64(value);
    do {
        *--p = char('0' + magnitude % 10);
        magnitude /= 10;
    } while (magnitude);
    if (value < 0)
        *--p = '-';
    m_out->append(p, end - p);
}

void JsonWriter::boolean(bool value)
{
    separate();
    m_out->append(value ? "true" : "false");
}

void JsonWriter::null()
{
    separate();
    m_out->append("null");
}

} // namespace LockScope
