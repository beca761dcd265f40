// What an SSH tunnel costs: the same redis-server reached directly and through a real sshd on loopback (started by
// this bench with keys of its own; needs root for sshd), in the same run. Measured as users meet it: lockscope-cli
// --json list on a seeded keyspace (a process each time: SSH's handshake is part of it), a Redis round trip (PING,
// one at a time) and a pipelined burst, through one RedisConnection each.
#include "benchcommon.h"

#include "redis/redisconnection.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QDir>
#include <QEventLoop>
#include <QFile>
#include <QProcess>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QThread>

#include <vector>

using namespace LockScope;
using namespace LockScope::Bench;

namespace {

double ms(qint64 ns)
{
    return double(ns) / 1e6;
}

void run(const QStringList &command)
{
    QProcess p;
    p.setProcessChannelMode(QProcess::MergedChannels);
    p.start(command.first(), command.mid(1));
    if (!p.waitForFinished(60000) || p.exitCode() != 0)
        fatal(QStringLiteral("%1 failed: %2").arg(command.join(QLatin1Char(' ')), QString::fromLocal8Bit(p.readAll())));
}

quint16 freePort()
{
    QTcpServer probe;
    if (!probe.listen(QHostAddress::LocalHost, 0))
        fatal(QStringLiteral("no free loopback port"));
    return probe.serverPort();
}

// A private sshd on 127.0.0.1: its own host key, one authorized key; the bench's known_hosts knows it.
struct Sshd
{
    QTemporaryDir dir;
    QProcess process;
    quint16 port = 0;

    void start()
    {
        const QString d = dir.path() + QLatin1Char('/');
        QDir().mkpath(QStringLiteral("/run/sshd"));
        for (const char *key : { "hostkey", "clientkey" })
            run({ QStringLiteral("ssh-keygen"), QStringLiteral("-q"), QStringLiteral("-t"), QStringLiteral("ed25519"),
                QStringLiteral("-N"), QString(), QStringLiteral("-f"), d + QLatin1String(key) });
        QFile::copy(d + QStringLiteral("clientkey.pub"), d + QStringLiteral("authorized_keys"));
        port = freePort();
        QFile config(d + QStringLiteral("sshd_config"));
        config.open(QIODevice::WriteOnly);
        config.write(QStringLiteral("ListenAddress 127.0.0.1:%1\nHostKey %2hostkey\nAuthorizedKeysFile "
                                    "%2authorized_keys\nStrictModes no\nUsePAM no\nPasswordAuthentication no\n"
                                    "PermitRootLogin prohibit-password\nPidFile none\n")
                         .arg(port)
                         .arg(d)
                         .toUtf8());
        config.close();
        QFile hostKey(d + QStringLiteral("hostkey.pub"));
        hostKey.open(QIODevice::ReadOnly);
        const QList<QByteArray> parts = hostKey.readAll().trimmed().split(' ');
        QFile knownHosts(d + QStringLiteral("known_hosts"));
        knownHosts.open(QIODevice::WriteOnly);
        knownHosts.write(
            QStringLiteral("[127.0.0.1]:%1 ").arg(port).toUtf8() + parts.value(0) + ' ' + parts.value(1) + '\n');
        knownHosts.close();
        process.start(QStringLiteral("/usr/sbin/sshd"),
            { QStringLiteral("-D"), QStringLiteral("-f"), d + QStringLiteral("sshd_config"), QStringLiteral("-E"),
                d + QStringLiteral("sshd.log") });
        const QDeadlineTimer deadline(15000);
        while (!deadline.hasExpired()) {
            QFile log(d + QStringLiteral("sshd.log"));
            if (log.open(QIODevice::ReadOnly) && log.readAll().contains("Server listening"))
                return;
            if (process.state() == QProcess::NotRunning)
                break;
            QThread::msleep(20); // readiness poll against a deadline
        }
        fatal(QStringLiteral("sshd did not start (it needs root and openssh-server)"));
    }
    ~Sshd()
    {
        process.kill();
        process.waitForFinished(5000);
    }
    QString file(const char *name) const { return dir.filePath(QLatin1String(name)); }
    SshOptions options() const
    {
        SshOptions o = SshOptions::parseTarget(QStringLiteral("root@127.0.0.1:%1").arg(port));
        o.keyFile = file("clientkey");
        o.knownHostsFile = file("known_hosts");
        o.readSshConfig = false;
        return o;
    }
};

void waitFor(const std::function<bool()> &done)
{
    QEventLoop loop;
    const QDeadlineTimer deadline(60000);
    while (!done()) {
        if (deadline.hasExpired())
            fatal(QStringLiteral("timed out"));
        loop.processEvents(QEventLoop::WaitForMoreEvents, 50);
    }
}

struct Round
{
    double connectMs = 0;
    double pingUsMedian = 0;
    double pipelinePerS = 0;
};

Round measureConnection(const ConnectionOptions &options, int pings, int burst)
{
    Round r;
    RedisConnection connection(options);
    const qint64 start = nowNs();
    connection.open();
    waitFor([&] { return connection.isReady(); });
    r.connectMs = ms(nowNs() - start);
    std::vector<double> rtts;
    for (int i = 0; i < pings; ++i) {
        bool done = false;
        const qint64 sent = nowNs();
        connection.command({ "PING" }, [&](const RedisResult &) { done = true; });
        waitFor([&] { return done; });
        rtts.push_back(double(nowNs() - sent) / 1e3);
    }
    r.pingUsMedian = median(rtts);
    int answered = 0;
    const qint64 burstStart = nowNs();
    connection.cork();
    for (int i = 0; i < burst; ++i)
        connection.command({ "PING" }, [&](const RedisResult &) { ++answered; });
    connection.uncork();
    waitFor([&] { return answered == burst; });
    r.pipelinePerS = burst / (double(nowNs() - burstStart) / 1e9);
    return r;
}

// One lockscope-cli run: its wall time, and how many locks it listed (a lock object's "confidence" key).
double listMs(const QStringList &args, const QString &outFile, qint64 *listed)
{
    QProcess p;
    p.setStandardOutputFile(outFile);
    const qint64 start = nowNs();
    p.start(QStringLiteral(LOCKSCOPE_CLI_PATH), args);
    if (!p.waitForFinished(120000) || p.exitCode() != 0)
        fatal(QStringLiteral("lockscope-cli %1 failed: %2")
                  .arg(args.join(QLatin1Char(' ')), QString::fromLocal8Bit(p.readAllStandardError())));
    const double elapsed = ms(nowNs() - start);
    QFile out(outFile);
    out.open(QIODevice::ReadOnly);
    *listed = out.readAll().count("\"confidence\":");
    return elapsed;
}

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    QCommandLineParser parser;
    parser.addHelpOption();
    addUrlOption(parser);
    parser.addOption({ QStringLiteral("locks"), QStringLiteral("locks to seed (default 20000)"), QStringLiteral("N") });
    parser.addOption(
        { QStringLiteral("runs"), QStringLiteral("lockscope-cli runs per route (default 5)"), QStringLiteral("N") });
    parser.process(app);
    const int locks
        = parser.value(QStringLiteral("locks")).isEmpty() ? 20000 : parser.value(QStringLiteral("locks")).toInt();
    const int runs = parser.value(QStringLiteral("runs")).isEmpty() ? 5 : parser.value(QStringLiteral("runs")).toInt();
    const int pings = 2000;
    const int burst = 100000;

    BenchServer server;
    QString error;
    if (!server.open(parser.value(QStringLiteral("url")), &error))
        fatal(error);
    if (server.options().host != QLatin1String("127.0.0.1") && server.options().host != QLatin1String("localhost"))
        fatal(QStringLiteral("--url must be on this machine: the bench's sshd forwards to loopback"));
    Sshd sshd;
    sshd.start();

    // Seed: Redisson reentrant locks with long leases, pipelined.
    {
        RedisConnection seeder(server.options());
        int answered = 0;
        seeder.cork();
        for (int i = 0; i < locks; ++i) {
            const QByteArray name = "bench:tunnel:" + QByteArray::number(i);
            seeder.command({ "HSET", name, "6e3d30b7-83b1-433a-9335-5e8b9916d3ac:" + QByteArray::number(i % 16), "1" },
                [&](const RedisResult &) { ++answered; });
            seeder.command({ "PEXPIRE", name, "600000" }, [&](const RedisResult &) { ++answered; });
        }
        seeder.uncork();
        waitFor([&] { return answered == 2 * locks; });
    }

    ConnectionOptions tunnelled = server.options();
    tunnelled.ssh = sshd.options();
    const Round direct = measureConnection(server.options(), pings, burst);
    const Round ssh = measureConnection(tunnelled, pings, burst);

    const QStringList list { QStringLiteral("--json"), QStringLiteral("list"), QStringLiteral("--pattern"),
        QStringLiteral("bench:tunnel:*"), QStringLiteral("--url"), server.url() };
    const QStringList viaSsh = list
        + QStringList { QStringLiteral("--ssh"), QStringLiteral("root@127.0.0.1:%1").arg(sshd.port),
              QStringLiteral("--ssh-key"), sshd.file("clientkey"), QStringLiteral("--ssh-known-hosts"),
              sshd.file("known_hosts") };
    // Alternated, so a noisy moment hurts both routes alike.
    std::vector<double> directList, sshList;
    qint64 listedDirect = 0;
    qint64 listedSsh = 0;
    const QString outFile = sshd.file("list.json");
    for (int i = 0; i < runs; ++i) {
        directList.push_back(listMs(list, outFile, &listedDirect));
        sshList.push_back(listMs(viaSsh, outFile, &listedSsh));
    }
    const double listDirect = median(directList);
    const double listSsh = median(sshList);

    report(QStringLiteral("%1 locks; lockscope-cli --json list: direct %2 ms, through SSH %3 ms (median of %4)")
               .arg(locks)
               .arg(listDirect, 0, 'f', 1)
               .arg(listSsh, 0, 'f', 1)
               .arg(runs));
    report(QStringLiteral("connect: direct %1 ms, through SSH %2 ms (handshake, key exchange, authentication, channel)")
               .arg(direct.connectMs, 0, 'f', 1)
               .arg(ssh.connectMs, 0, 'f', 1));
    report(QStringLiteral("PING round trip (median of %1): direct %2 us, through SSH %3 us")
               .arg(pings)
               .arg(direct.pingUsMedian, 0, 'f', 1)
               .arg(ssh.pingUsMedian, 0, 'f', 1));
    report(QStringLiteral("pipelined PING x%1: direct %2/s, through SSH %3/s")
               .arg(burst)
               .arg(direct.pipelinePerS, 0, 'f', 0)
               .arg(ssh.pipelinePerS, 0, 'f', 0));

    JsonLine baseline;
    baseline.add(QStringLiteral("locks_listed_direct"), listedDirect)
        .add(QStringLiteral("list_ms_direct"), listDirect)
        .add(QStringLiteral("connect_ms_direct"), direct.connectMs)
        .add(QStringLiteral("ping_rtt_us_direct"), direct.pingUsMedian)
        .add(QStringLiteral("pipeline_per_s_direct"), direct.pipelinePerS);
    JsonLine ratio;
    ratio.add(QStringLiteral("direct_vs_ssh_list_time"), listDirect / listSsh)
        .add(QStringLiteral("direct_vs_ssh_ping_rtt"), direct.pingUsMedian / ssh.pingUsMedian)
        .add(QStringLiteral("ssh_vs_direct_pipeline"), ssh.pipelinePerS / direct.pipelinePerS);
    JsonLine json;
    json.add(QStringLiteral("bench"), "tunnel")
        .add(QStringLiteral("locks"), locks)
        .add(QStringLiteral("runs"), runs)
        .add(QStringLiteral("locks_listed_ssh"), listedSsh)
        .add(QStringLiteral("list_ms_ssh"), listSsh)
        .add(QStringLiteral("connect_ms_ssh"), ssh.connectMs)
        .add(QStringLiteral("ping_rtt_us_ssh"), ssh.pingUsMedian)
        .add(QStringLiteral("pipeline_per_s_ssh"), ssh.pipelinePerS)
        .add(QStringLiteral("baseline"), baseline)
        .add(QStringLiteral("ratio"), ratio);
    printJsonLine(json);
    return 0;
}
