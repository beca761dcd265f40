// bench_metrics: what one Prometheus scrape of `lockscope-cli serve-metrics` costs at a million locks. The CLI runs as
// users run it, a process of its own, on bench_monitor's keyspace; the bench times GET /metrics (what Prometheus asks
// for) against GET / on the same endpoint (the HTTP server's own cost: no page to build), rounds interleaved. The
// CLI's event loop is single-threaded and otherwise idle here (keyspace events on the bench's own server: no
// re-scans), so a request's wall time bounds the event-loop time its handler took.
#include "benchcommon.h"
#include "monitorraw.h"
#include "monitorseed.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QUrl>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

using namespace LockScope;
using namespace LockScope::Bench;

namespace {

double ms(qint64 ns)
{
    return double(ns) / 1e6;
}

struct Response
{
    double wallMs = 0;
    int status = 0;
    QByteArray body;
};

// One request on a fresh loopback connection, read to the end of its body (Content-Length), timed from connect() to
// the last byte: the same for both paths, so what differs is the handler.
Response get(quint16 port, const QByteArray &path, const QByteArray &accept)
{
    Response r;
    const qint64 start = nowNs();
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0)
        fatal(QStringLiteral("socket: %1").arg(QString::fromLocal8Bit(strerror(errno))));
    const int one = 1;
    ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    sockaddr_in address {};
    address.sin_family = AF_INET;
    address.sin_port = htons(port);
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (::connect(fd, reinterpret_cast<const sockaddr *>(&address), sizeof address) != 0)
        fatal(QStringLiteral("connect to the endpoint: %1").arg(QString::fromLocal8Bit(strerror(errno))));
    const QByteArray request
        = "GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: " + accept + "\r\nConnection: close\r\n\r\n";
    if (::write(fd, request.constData(), size_t(request.size())) != request.size())
        fatal(QStringLiteral("cannot send the request"));
    QByteArray in;
    qsizetype headerEnd = -1;
    qint64 length = -1;
    char buffer[65536];
    for (;;) {
        const ssize_t n = ::read(fd, buffer, sizeof buffer);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        in.append(buffer, qsizetype(n));
        if (headerEnd < 0 && (headerEnd = in.indexOf("\r\n\r\n")) >= 0) {
            const QByteArray head = in.left(headerEnd).toLower();
            const qsizetype at = head.indexOf("content-length:");
            if (at >= 0)
                length = head.mid(at + 15, head.indexOf("\r\n", at) - at - 15).trimmed().toLongLong();
            r.status = in.mid(in.indexOf(' ') + 1, 3).toInt();
        }
        if (headerEnd >= 0 && length >= 0 && in.size() - headerEnd - 4 >= length)
            break;
    }
    ::close(fd);
    r.wallMs = ms(nowNs() - start);
    if (headerEnd < 0)
        fatal(QStringLiteral("no HTTP response for %1").arg(QString::fromLatin1(path)));
    r.body = in.mid(headerEnd + 4);
    return r;
}

struct PageFigures
{
    qint64 locks = 0, held = 0, waiters = 0;
    qint64 tracked = 0; // locks with statistics kept: the per-lock ranking's size
    int series = 0; // samples in the page
};

// The sums of the per-kind gauges (lockscope_locks, _held, lockscope_waiters).
PageFigures readPage(const QByteArray &page)
{
    PageFigures f;
    for (const QByteArray &line : page.split('\n')) {
        if (line.isEmpty() || line.startsWith('#'))
            continue;
        ++f.series;
        const qint64 value = line.mid(line.lastIndexOf(' ') + 1).toLongLong();
        if (line.startsWith("lockscope_locks{"))
            f.locks += value;
        else if (line.startsWith("lockscope_locks_held{"))
            f.held += value;
        else if (line.startsWith("lockscope_waiters{"))
            f.waiters += value;
        else if (line.startsWith("lockscope_tracked_locks "))
            f.tracked = value;
    }
    return f;
}

class ServeMetrics
{
public:
    ~ServeMetrics()
    {
        m_process.terminate();
        if (!m_process.waitForFinished(10000))
            m_process.kill();
        m_process.waitForFinished(5000);
    }

    // Starts the CLI on an ephemeral port and waits for its first snapshot (its "watching N lock(s)" line).
    void start(const QString &cli, const QString &url, int timeoutMs)
    {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("LC_ALL"), QStringLiteral("C")); // the lines read below are untranslated
        env.insert(QStringLiteral("LANGUAGE"), QStringLiteral("C"));
        // It records, as users run it; into a directory of the bench's own.
        env.insert(QStringLiteral("XDG_DATA_HOME"), m_data.path());
        m_process.setProcessEnvironment(env);
        m_process.start(cli,
            { QStringLiteral("--url"), url, QStringLiteral("--json"), QStringLiteral("serve-metrics"),
                QStringLiteral("--listen"), QStringLiteral("127.0.0.1:0") });
        if (!m_process.waitForStarted(10000))
            fatal(QStringLiteral("cannot start %1").arg(cli));
        const qint64 deadline = nowNs() + qint64(timeoutMs) * 1000000;
        QByteArray out, err;
        while (m_port == 0 || !err.contains("watching ")) {
            if (nowNs() > deadline || m_process.state() != QProcess::Running)
                fatal(QStringLiteral("serve-metrics did not come up: %1%2")
                          .arg(QString::fromLocal8Bit(out), QString::fromLocal8Bit(err)));
            m_process.waitForReadyRead(200);
            out += m_process.readAllStandardOutput();
            err += m_process.readAllStandardError();
            const qsizetype eol = out.indexOf('\n');
            if (m_port == 0 && eol >= 0) {
                const QString listening
                    = QJsonDocument::fromJson(out.left(eol)).object().value(QStringLiteral("listening")).toString();
                m_port = quint16(QUrl(listening).port());
            }
        }
        const qsizetype at = err.indexOf("watching ");
        m_watching = QString::fromLocal8Bit(err.mid(at, err.indexOf('\n', at) - at)).trimmed();
        m_mode = m_watching.section(QStringLiteral(" via "), 1);
    }
    quint16 port() const { return m_port; }
    QString watching() const { return m_watching; }
    QString mode() const { return m_mode; }
    qint64 pid() const { return m_process.processId(); }

private:
    QProcess m_process;
    QTemporaryDir m_data;
    quint16 m_port = 0;
    QString m_watching, m_mode;
};

double procStatusKb(qint64 pid, const QByteArray &field)
{
    QFile f(QStringLiteral("/proc/%1/status").arg(pid));
    if (!f.open(QIODevice::ReadOnly))
        return 0;
    for (const QByteArray &line : f.readAll().split('\n'))
        if (line.startsWith(field + ':'))
            return line.mid(field.size() + 1).trimmed().split(' ').value(0).toDouble();
    return 0;
}

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("bench_metrics"));

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "One /metrics scrape of lockscope-cli serve-metrics at many locks, against a trivial GET of the same server."));
    parser.addHelpOption();
    addUrlOption(parser);
    parser.addOption({ QStringLiteral("locks"), QStringLiteral("Redisson locks to seed"), QStringLiteral("N"),
        QStringLiteral("1000000") });
    parser.addOption({ QStringLiteral("other-locks"), QStringLiteral("locks of the other libraries to seed"),
        QStringLiteral("N"), QStringLiteral("100000") });
    parser.addOption(
        { QStringLiteral("noise"), QStringLiteral("other keys to seed"), QStringLiteral("N"), QStringLiteral("0") });
    parser.addOption({ QStringLiteral("scrapes"), QStringLiteral("scrape + trivial GET pairs; medians are reported"),
        QStringLiteral("N"), QStringLiteral("30") });
    parser.addOption({ QStringLiteral("cli"), QStringLiteral("the lockscope-cli to run"), QStringLiteral("PATH"),
        QStringLiteral(LOCKSCOPE_CLI_PATH) });
    parser.process(app);

    const int locks = parser.value(QStringLiteral("locks")).toInt();
    const int otherLocks = parser.value(QStringLiteral("other-locks")).toInt();
    const int noise = parser.value(QStringLiteral("noise")).toInt();
    const int scrapes = parser.value(QStringLiteral("scrapes")).toInt();
    const QString cli = parser.value(QStringLiteral("cli"));
    if (locks < 10 || otherLocks < 0 || noise < 0 || scrapes < 1)
        fatal(QStringLiteral("--locks must be >= 10, --scrapes positive, --other-locks and --noise not negative"));

    QString error;
    BenchServer server;
    RawPipe raw;
    openSeedServer(parser.value(QStringLiteral("url")), server, raw);
    const SeedPlan plan = standardSeedPlan(locks, noise, otherLocks);
    SeedCounts seeded;
    if (!seedKeyspace(raw, plan, kSeedChunk, &seeded, &error))
        fatal(error);
    // On our own server the monitor follows keyspace events: no re-scan of a million locks runs on the CLI's event
    // loop between scrapes. A --url server is left as it is configured (the mode is reported).
    if (server.isPrivate()) {
        RawReply set = raw.command({ "CONFIG", "SET", "notify-keyspace-events", "Kh$zgx" }, &error);
        if (!set || isErrorReply(set.get()))
            fatal(QStringLiteral("CONFIG SET notify-keyspace-events: %1").arg(error));
    }
    report(QStringLiteral("server %1: seeded %2 locks and %3 other libraries' locks among %4 other keys in %5 ms")
               .arg(server.options().toDisplayUrl())
               .arg(locks)
               .arg(otherLocks)
               .arg(noise)
               .arg(ms(seeded.elapsedNs), 0, 'f', 0));

    const qint64 cliStart = nowNs();
    ServeMetrics serve;
    serve.start(cli, server.url(), 600000);
    report(
        QStringLiteral("serve-metrics up in %1 ms: %2").arg(ms(nowNs() - cliStart), 0, 'f', 0).arg(serve.watching()));

    // Every lock in the gauges before anything is timed (the reads after the first pass may still be landing).
    const QByteArray openMetrics = "application/openmetrics-text; version=1.0.0,text/plain;version=0.0.4;q=0.5";
    const qint64 expected = locks + otherLocks;
    PageFigures figures;
    const qint64 settleDeadline = nowNs() + 120 * qint64(1000000000);
    for (;;) {
        const Response page = get(serve.port(), "/metrics", openMetrics);
        figures = readPage(page.body);
        if (page.status == 200 && figures.locks == expected)
            break;
        if (nowNs() > settleDeadline)
            break;
        usleep(200000);
    }
    report(QStringLiteral("the gauges: %1 locks (%2 seeded), %3 held, %4 waiters; %5 samples in the page; statistics "
                          "kept for %6 locks")
               .arg(figures.locks)
               .arg(expected)
               .arg(figures.held)
               .arg(figures.waiters)
               .arg(figures.series)
               .arg(figures.tracked));

    // Warm-up, not counted.
    for (int i = 0; i < 3; ++i) {
        get(serve.port(), "/", "text/html");
        get(serve.port(), "/metrics", openMetrics);
    }
    std::vector<double> scrapeMs, trivialMs;
    qsizetype pageBytes = 0;
    for (int round = 0; round < scrapes; ++round) {
        // Every other round the other order, so a slow stretch of the machine hits both alike.
        Response scrape, trivial;
        if (round % 2 == 0) {
            trivial = get(serve.port(), "/", "text/html");
            scrape = get(serve.port(), "/metrics", openMetrics);
        } else {
            scrape = get(serve.port(), "/metrics", openMetrics);
            trivial = get(serve.port(), "/", "text/html");
        }
        if (scrape.status != 200 || trivial.status != 200)
            fatal(QStringLiteral("HTTP status %1 (/metrics), %2 (/)").arg(scrape.status).arg(trivial.status));
        scrapeMs.push_back(scrape.wallMs);
        trivialMs.push_back(trivial.wallMs);
        pageBytes = scrape.body.size();
    }
    const double rssMb = procStatusKb(serve.pid(), "VmHWM") / 1024.0;
    if (!server.isPrivate()) {
        const qint64 removed = removeSeeded(raw, &error);
        if (!error.isEmpty())
            std::fprintf(stderr, "cleanup: %s\n", qPrintable(error));
        report(QStringLiteral("removed the %1 keys this run seeded").arg(removed));
    }

    const double scrape = median(scrapeMs), trivial = median(trivialMs);
    report(QStringLiteral("GET /metrics: median %1 ms, p95 %2 ms, max %3 ms (%4 bytes); GET /: median %5 ms")
               .arg(scrape, 0, 'f', 3)
               .arg(percentile(scrapeMs, 95), 0, 'f', 3)
               .arg(percentile(scrapeMs, 100), 0, 'f', 3)
               .arg(pageBytes)
               .arg(trivial, 0, 'f', 3));
    const bool ok = figures.locks == expected;
    if (!ok)
        std::fprintf(stderr, "the gauges count %lld locks, %lld were seeded\n", static_cast<long long>(figures.locks),
            static_cast<long long>(expected));
    printJsonLine(JsonLine()
                      .add(QStringLiteral("bench"), "metrics")
                      .add(QStringLiteral("locks"), locks)
                      .add(QStringLiteral("other_locks"), otherLocks)
                      .add(QStringLiteral("noise_keys"), noise)
                      .add(QStringLiteral("scrapes"), scrapes)
                      .add(QStringLiteral("mode"), serve.mode())
                      .add(QStringLiteral("locks_gauged"), figures.locks)
                      .add(QStringLiteral("held_gauged"), figures.held)
                      .add(QStringLiteral("waiters_gauged"), figures.waiters)
                      .add(QStringLiteral("tracked_locks"), figures.tracked)
                      .add(QStringLiteral("page_bytes"), qint64(pageBytes))
                      .add(QStringLiteral("scrape_ms"), scrape)
                      .add(QStringLiteral("scrape_ms_p95"), percentile(scrapeMs, 95))
                      .add(QStringLiteral("scrape_ms_max"), percentile(scrapeMs, 100))
                      .add(QStringLiteral("cli_rss_peak_mb"), rssMb)
                      .add(QStringLiteral("baseline"), JsonLine().add(QStringLiteral("trivial_get_ms"), trivial))
                      .add(QStringLiteral("ratio"),
                          JsonLine()
                              .add(QStringLiteral("target_5ms_vs_scrape"), 5.0 / scrape)
                              .add(QStringLiteral("trivial_get_vs_scrape"), trivial / scrape)));
    return ok ? 0 : 1;
}
