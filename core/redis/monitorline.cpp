#include "redis/monitorline.h"

#include <limits>

namespace LockScope {

namespace {

int hexValue(char c)
{
    return c >= '0' && c <= '9' ? c - '0'
        : c >= 'a' && c <= 'f'  ? c - 'a' + 10
        : c >= 'A' && c <= 'F'  ? c - 'A' + 10
                                : -1;
}

// MONITOR quotes each argument as sdscatrepr does: \\ \" \n \r \t \a \b and \xHH.
bool unquote(const QByteArray &line, qsizetype *pos, QByteArray *out)
{
    qsizetype i = *pos;
    if (i >= line.size() || line.at(i) != '"')
        return false;
    ++i;
    out->clear();
    while (i < line.size()) {
        const char c = line.at(i);
        if (c == '"') {
            *pos = i + 1;
            return true;
        }
        if (c != '\\') {
            out->append(c);
            ++i;
            continue;
        }
        if (i + 1 >= line.size())
            return false;
        const char e = line.at(i + 1);
        i += 2;
        switch (e) {
        case 'n':
            out->append('\n');
            break;
        case 'r':
            out->append('\r');
            break;
        case 't':
            out->append('\t');
            break;
        case 'a':
            out->append('\a');
            break;
        case 'b':
            out->append('\b');
            break;
        case 'x': {
            const int high = i + 1 < line.size() ? hexValue(line.at(i)) : -1;
            const int low = high >= 0 ? hexValue(line.at(i + 1)) : -1;
            if (low < 0)
                return false;
            out->append(char(high * 16 + low));
            i += 2;
            break;
        }
        default:
            out->append(e);
        }
    }
    return false;
}

// "1700000000.123456": seconds and up to six digits of microseconds. 0 when it is no such number.
qint64 timestampOf(const QByteArray &text)
{
    const qsizetype dot = text.indexOf('.');
    bool ok = false;
    const qint64 seconds = (dot < 0 ? text : text.left(dot)).toLongLong(&ok);
    if (!ok || seconds < 0 || seconds > std::numeric_limits<qint64>::max() / 1000000 - 1)
        return 0; // no time a server could send: not microseconds in 64 bits
    qint64 micros = 0;
    if (dot >= 0) {
        const QByteArray fraction = text.mid(dot + 1, 6);
        for (const char c : fraction) {
            if (c < '0' || c > '9')
                return 0;
        }
        micros = fraction.leftJustified(6, '0').toLongLong();
    }
    return seconds * 1000000 + micros;
}

} // namespace

bool parseMonitorLine(const QByteArray &line, MonitorLine *out)
{
    const qsizetype open = line.indexOf('[');
    if (open < 0)
        return false;
    // The source ends at the first ']' that quoted arguments follow: an IPv6 client ("[::1]:5555") holds one too.
    qsizetype close = open;
    qsizetype args = -1;
    while ((close = line.indexOf(']', close + 1)) >= 0) {
        qsizetype next = close + 1;
        while (next < line.size() && line.at(next) == ' ')
            ++next;
        if (next < line.size() && line.at(next) == '"') {
            args = next;
            break;
        }
    }
    if (args < 0)
        return false;
    const QByteArray source = line.mid(open + 1, close - open - 1); // "0 127.0.0.1:5555" or "0 lua"
    const qsizetype space = source.indexOf(' ');
    MonitorLine parsed;
    parsed.timestampUs = timestampOf(line.left(open).trimmed());
    bool dbOk = false;
    const int db = (space < 0 ? QByteArray() : source.left(space)).toInt(&dbOk);
    parsed.db = dbOk ? db : -1;
    parsed.client = space < 0 ? source : source.mid(space + 1);
    qsizetype pos = args;
    while (pos < line.size()) {
        while (pos < line.size() && line.at(pos) == ' ')
            ++pos;
        if (pos >= line.size())
            break;
        QByteArray arg;
        if (!unquote(line, &pos, &arg))
            return false;
        parsed.argv.append(arg);
    }
    if (parsed.argv.isEmpty())
        return false;
    *out = std::move(parsed);
    return true;
}

} // namespace LockScope
