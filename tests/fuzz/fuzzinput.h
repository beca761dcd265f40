#pragma once

#include <QByteArray>
#include <QString>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

namespace LockScope::Fuzz {

// Fails the run the way libFuzzer records as a crash, with the broken invariant named on stderr first.
[[noreturn]] inline void violated(const char *what)
{
    fprintf(stderr, "fuzz invariant violated: %s\n", what);
    fflush(stderr);
    abort();
}

#define FUZZ_CHECK(condition)                                                                                          \
    do {                                                                                                               \
        if (!(condition))                                                                                              \
            ::LockScope::Fuzz::violated(#condition " (" __FILE__ ":" QT_STRINGIFY(__LINE__) ")");                      \
    } while (0)

// A fuzz input read as small typed fields. Past the end every read gives zero or empty, so any input decodes and
// the fuzzer can grow a structure one field at a time.
class FuzzInput
{
public:
    FuzzInput(const uint8_t *data, size_t size)
        : m_data(data)
        , m_size(size)
    { }

    bool atEnd() const { return m_pos >= m_size; }
    size_t remaining() const { return m_size - m_pos; }
    quint8 byte() { return atEnd() ? 0 : m_data[m_pos++]; }
    bool flag() { return byte() & 1; }
    quint32 u32()
    {
        quint32 v = 0;
        for (int i = 0; i < 4; ++i)
            v |= quint32(byte()) << (8 * i);
        return v;
    }
    qint64 i64()
    {
        quint64 v = 0;
        for (int i = 0; i < 8; ++i)
            v |= quint64(byte()) << (8 * i);
        return qint64(v);
    }
    // One length byte (255: two more bytes give a length up to 64 KiB, for long names), then that many bytes.
    QByteArray piece()
    {
        size_t length = byte();
        if (length == 255)
            length = size_t(byte()) << 8 | byte();
        return take(length);
    }
    QByteArray rest() { return take(remaining()); }

private:
    QByteArray take(size_t length)
    {
        if (length > remaining())
            length = remaining();
        const QByteArray bytes(reinterpret_cast<const char *>(m_data + m_pos), qsizetype(length));
        m_pos += length;
        return bytes;
    }

    const uint8_t *m_data;
    size_t m_size;
    size_t m_pos = 0;
};

// Chunk sizes and small choices from one seed byte, so that the bytes they cut stay readable in the seed files.
class SeededChoices
{
public:
    explicit SeededChoices(quint8 seed)
        : m_state(0x9e3779b9u ^ seed)
        , m_maxChunk(1u << (seed % 8))
        , m_whole(seed == 0)
    { }
    quint32 next()
    {
        // xorshift32: deterministic and cheap; quality does not matter here.
        m_state ^= m_state << 13;
        m_state ^= m_state >> 17;
        m_state ^= m_state << 5;
        return m_state;
    }
    quint32 below(quint32 n) { return n ? next() % n : 0; }
    // 0: everything at once; else 1 .. 2^(seed % 8) bytes.
    qsizetype chunk(qsizetype left) { return m_whole ? left : qMin<qsizetype>(left, 1 + below(m_maxChunk)); }

private:
    quint32 m_state;
    quint32 m_maxChunk;
    bool m_whole;
};

// The escape rule of bytesformat.h undone, written apart from the CLI's own unescapeBytes() so that each checks the
// other: "\\" is a backslash, "\xNN" a byte, every other character its UTF-8.
inline QByteArray referenceUnescape(const QString &text)
{
    QByteArray out;
    for (qsizetype i = 0; i < text.size(); ++i) {
        if (text.at(i) == QLatin1Char('\\') && i + 1 < text.size() && text.at(i + 1) == QLatin1Char('\\')) {
            out += '\\';
            ++i;
        } else if (text.at(i) == QLatin1Char('\\') && i + 3 < text.size() && text.at(i + 1) == QLatin1Char('x')) {
            out += char(text.mid(i + 2, 2).toUInt(nullptr, 16));
            i += 3;
        } else if (text.at(i).isHighSurrogate() && i + 1 < text.size()) {
            out += text.mid(i, 2).toUtf8();
            ++i;
        } else {
            out += QString(text.at(i)).toUtf8();
        }
    }
    return out;
}

} // namespace LockScope::Fuzz
