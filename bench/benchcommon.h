#pragma once

#include "redis/connectionoptions.h"

#include <QByteArray>
#include <QList>
#include <QString>

#include <memory>
#include <utility>
#include <vector>

class QCommandLineParser;

namespace LockScope {
class LocalRedisServer;
}

namespace LockScope::Bench {

// CLOCK_MONOTONIC in nanoseconds: one clock shared by every process on the machine, so worker timestamps
// from different processes can be merged directly.
qint64 nowNs();
// CPU time of the calling thread so far, in ns: on a shared machine, what a stall cost this thread itself (a wall gap
// also counts the time another process had the CPU).
qint64 threadCpuNs();

double median(std::vector<double> values);
// Nearest-rank percentile, p in [0, 100].
double percentile(std::vector<double> values, double p);

// A JSON object that keeps its keys in insertion order, so "bench" comes first and "baseline" and "ratio" last,
// and that prints on one line: the last line of stdout is what scripts parse.
class JsonLine
{
public:
    JsonLine &add(const QString &key, double value);
    JsonLine &add(const QString &key, qint64 value);
    JsonLine &add(const QString &key, int value) { return add(key, qint64(value)); }
    JsonLine &add(const QString &key, bool value);
    JsonLine &add(const QString &key, const QString &value);
    JsonLine &add(const QString &key, const char *value) { return add(key, QString::fromUtf8(value)); }
    JsonLine &add(const QString &key, const JsonLine &object);
    QByteArray toJson() const;

private:
    QList<std::pair<QString, QByteArray>> m_fields; // key, encoded value
};

// The server a benchmark talks to: the one --url names, or a private redis-server started for this run
// (never a fixed port, so a developer's own server on 6379 is never touched).
class BenchServer
{
public:
    BenchServer();
    ~BenchServer();
    BenchServer(const BenchServer &) = delete;
    BenchServer &operator=(const BenchServer &) = delete;

    bool open(const QString &url, QString *error);
    const ConnectionOptions &options() const { return m_options; }
    QString url() const { return m_url; }
    bool isPrivate() const { return m_local != nullptr; }

private:
    std::unique_ptr<LocalRedisServer> m_local;
    ConnectionOptions m_options;
    QString m_url;
};

// --url, shared by every bench.
void addUrlOption(QCommandLineParser &parser);

// A figure for people, before the JSON line.
void report(const QString &line);
void printJsonLine(const JsonLine &json);
// Diagnostics go to stderr so stdout stays figures plus the JSON line.
[[noreturn]] void fatal(const QString &message);

} // namespace LockScope::Bench
