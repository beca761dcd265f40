#include "benchcommon.h"

#include "local/localredisserver.h"

#include <QCommandLineParser>
#include <QCoreApplication>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>

namespace LockScope::Bench {

qint64 nowNs()
{
    timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return qint64(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}

qint64 threadCpuNs()
{
    timespec t = {};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return qint64(t.tv_sec) * 1000000000 + qint64(t.tv_nsec);
}

double median(std::vector<double> values)
{
    if (values.empty())
        return std::nan("");
    std::sort(values.begin(), values.end());
    const size_t mid = values.size() / 2;
    return values.size() % 2 ? values[mid] : (values[mid - 1] + values[mid]) / 2;
}

double percentile(std::vector<double> values, double p)
{
    if (values.empty())
        return std::nan("");
    std::sort(values.begin(), values.end());
    const double rank = std::ceil(p / 100.0 * double(values.size()));
    const size_t index = size_t(std::clamp(rank, 1.0, double(values.size()))) - 1;
    return values[index];
}

namespace {
QByteArray quoted(const QString &text)
{
    QByteArray out = "\"";
    for (const QChar c : text) {
        switch (c.unicode()) {
        case '"':
            out += "\\\"";
            break;
        case '\\':
            out += "\\\\";
            break;
        case '\n':
            out += "\\n";
            break;
        default:
            if (c.unicode() < 0x20)
                out += "\\u" + QByteArray::number(c.unicode(), 16).rightJustified(4, '0');
            else
                out += QString(c).toUtf8();
        }
    }
    return out + '"';
}

// Three decimals are far below the run-to-run noise; more digits would only suggest a precision we lack.
QByteArray number(double value)
{
    if (!std::isfinite(value))
        return "null";
    QByteArray text = QByteArray::number(value, 'f', 3);
    while (text.endsWith('0'))
        text.chop(1);
    if (text.endsWith('.'))
        text.chop(1);
    return text == "-0" ? "0" : text;
}
} // namespace

JsonLine &JsonLine::add(const QString &key, double value)
{
    m_fields.append({ key, number(value) });
    return *this;
}

JsonLine &JsonLine::add(const QString &key, qint64 value)
{
    m_fields.append({ key, QByteArray::number(value) });
    return *this;
}

JsonLine &JsonLine::add(const QString &key, bool value)
{
    m_fields.append({ key, value ? "true" : "false" });
    return *this;
}

JsonLine &JsonLine::add(const QString &key, const QString &value)
{
    m_fields.append({ key, quoted(value) });
    return *this;
}

JsonLine &JsonLine::add(const QString &key, const JsonLine &object)
{
    m_fields.append({ key, object.toJson() });
    return *this;
}

QByteArray JsonLine::toJson() const
{
    QByteArray out = "{";
    for (const auto &[key, value] : m_fields) {
        if (out.size() > 1)
            out += ", ";
        out += quoted(key) + ": " + value;
    }
    return out + '}';
}

BenchServer::BenchServer() = default;
BenchServer::~BenchServer() = default;

bool BenchServer::open(const QString &url, QString *error)
{
    m_url = url;
    if (m_url.isEmpty()) {
        m_local = std::make_unique<LocalRedisServer>();
        if (!m_local->start(error))
            return false;
        m_url = m_local->url();
    }
    RedisError parseError;
    m_options = ConnectionOptions::fromUrl(m_url, &parseError);
    if (parseError.isError()) {
        if (error)
            *error = parseError.toString();
        return false;
    }
    return true;
}

void addUrlOption(QCommandLineParser &parser)
{
    parser.addOption({ QStringLiteral("url"),
        QStringLiteral("redis://[user[:password]@]host[:port][/db]; default: a private redis-server for this run"),
        QStringLiteral("URL") });
}

void report(const QString &line)
{
    std::fprintf(stdout, "%s\n", qPrintable(line));
    std::fflush(stdout);
}

void printJsonLine(const JsonLine &json)
{
    std::fprintf(stdout, "%s\n", json.toJson().constData());
    std::fflush(stdout);
}

void fatal(const QString &message)
{
    std::fprintf(stderr, "%s: %s\n", qPrintable(QCoreApplication::applicationName()), qPrintable(message));
    std::fflush(stderr);
    std::exit(1);
}

} // namespace LockScope::Bench
