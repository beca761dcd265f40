// What a support engineer runs before reclaiming by rule: `lockscope-cli reap --policy FILE --dry-run --json` over a
// big keyspace whose every lock the policy covers (so every holder is judged), against the same run's
// `lockscope-cli --json list` of that keyspace: what the judging adds to a pass. Then the approved run that releases
// the dead holds, per lock released. Seeds bench_list's keyspace plus home-grown locks whose holders are dead (their
// process gone, their heartbeat an hour old) under an owner template.
#include "benchcommon.h"
#include "clirun.h"
#include "monitorraw.h"
#include "monitorseed.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDateTime>
#include <QFile>
#include <QSysInfo>
#include <QTemporaryDir>

#include <hiredis.h>

using namespace LockScope;
using namespace LockScope::Bench;

namespace {
constexpr char kTemplate[] = "bench:reap:lock:*=heartbeat=bench:reap:hb:{owner},heartbeat-age=300,"
                             "regex:^ADDED:(?<owner>[^@]+)@(?<host>[^,]+),(?<since>\\d+),pid=(?<pid>\\d+)$";

// dead home-grown locks and their stale heartbeats; fatal on a failure.
void seedDead(RawPipe &raw, int dead)
{
    const QByteArray host = QSysInfo::machineHostName().toUtf8();
    const QByteArray since = QByteArray::number(QDateTime::currentSecsSinceEpoch() - 3600);
    QString error;
    for (int i = 0; i < dead; ++i) {
        const QByteArray run = "run" + QByteArray::number(i);
        // A pid no process has: the highest a Linux kernel hands out is below 2^22.
        raw.append({ "SET", "bench:reap:lock:" + QByteArray::number(i),
            "ADDED:" + run + '@' + host + ',' + since + ",pid=4194999" });
        raw.append({ "SET", "bench:reap:hb:" + run, since });
    }
    for (int i = 0; i < 2 * dead; ++i)
        if (const RawReply r = raw.next(&error); !r || isErrorReply(r.get()))
            fatal(QStringLiteral("seeding the dead locks: %1").arg(error));
}

qint64 deadLeft(RawPipe &raw, int dead)
{
    QString error;
    for (int i = 0; i < dead; ++i)
        raw.append({ "EXISTS", "bench:reap:lock:" + QByteArray::number(i) });
    qint64 left = 0;
    for (int i = 0; i < dead; ++i)
        if (const RawReply r = raw.next(&error))
            left += r->integer;
    return left;
}

// The items a reap report marks "release", and its hash, from its JSON lines.
qint64 toRelease(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        fatal(QStringLiteral("cannot read %1").arg(path));
    const QByteArray all = f.readAll();
    return all.count("\"action\":\"release\"");
}
} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("bench_reap"));

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "lockscope-cli reap --dry-run over a big keyspace against the same run's list, and the approved run."));
    parser.addHelpOption();
    addUrlOption(parser);
    parser.addOption({ QStringLiteral("locks"), QStringLiteral("Redisson locks to seed"), QStringLiteral("N"),
        QStringLiteral("100000") });
    parser.addOption({ QStringLiteral("noise"), QStringLiteral("other keys to seed"), QStringLiteral("N"),
        QStringLiteral("200000") });
    parser.addOption({ QStringLiteral("other-locks"), QStringLiteral("locks of the other libraries to seed"),
        QStringLiteral("N"), QStringLiteral("20000") });
    parser.addOption({ QStringLiteral("dead"), QStringLiteral("home-grown locks with dead holders to seed"),
        QStringLiteral("N"), QStringLiteral("500") });
    parser.addOption({ QStringLiteral("rounds"), QStringLiteral("list + dry run rounds; medians are reported"),
        QStringLiteral("N"), QStringLiteral("3") });
    parser.addOption({ QStringLiteral("cli"), QStringLiteral("the lockscope-cli to run"), QStringLiteral("PATH"),
        QStringLiteral(LOCKSCOPE_CLI_PATH) });
    parser.process(app);

    const int locks = parser.value(QStringLiteral("locks")).toInt();
    const int noise = parser.value(QStringLiteral("noise")).toInt();
    const int otherLocks = parser.value(QStringLiteral("other-locks")).toInt();
    const int dead = parser.value(QStringLiteral("dead")).toInt();
    const int rounds = parser.value(QStringLiteral("rounds")).toInt();
    const QString cli = parser.value(QStringLiteral("cli"));
    if (locks < 10 || noise < 0 || otherLocks < 0 || dead < 1 || rounds < 1)
        fatal(QStringLiteral("--locks must be >= 10, --dead and --rounds positive, --noise and --other-locks not "
                             "negative"));

    QTemporaryDir dir;
    // The approved run's audit records go here, not into the developer's own log.
    qputenv("LOCKSCOPE_AUDIT_LOG", dir.filePath(QStringLiteral("audit.log")).toLocal8Bit());
    qputenv("XDG_CACHE_HOME", dir.filePath(QStringLiteral("cache")).toLocal8Bit());
    BenchServer server;
    RawPipe raw;
    openSeedServer(parser.value(QStringLiteral("url")), server, raw);
    QString error;
    SeedCounts seeded;
    if (!seedKeyspace(raw, standardSeedPlan(locks, noise, otherLocks), kSeedChunk, &seeded, &error))
        fatal(error);
    seedDead(raw, dead);
    report(QStringLiteral("server %1: seeded %2 locks, %3 other libraries' locks, %4 dead home-grown locks among %5 "
                          "other keys")
               .arg(server.options().toDisplayUrl())
               .arg(locks)
               .arg(otherLocks)
               .arg(dead)
               .arg(noise));

    // Every lock covered: each holder is judged, which is what the dry run adds to a list's pass.
    const QString policy = dir.filePath(QStringLiteral("bench.yaml"));
    QFile file(policy);
    if (!file.open(QIODevice::WriteOnly))
        fatal(QStringLiteral("cannot write %1").arg(policy));
    file.write("name: bench\nmax_per_run: 100000\nrules:\n  - name: every-holder\n    pattern: \"*\"\n"
               "    min_age: 1m\n    verdict_for: 0s\n");
    file.close();
    const QString url = server.url();
    const QStringList common { QStringLiteral("--url"), url, QStringLiteral("--owner-template"),
        QString::fromLatin1(kTemplate) };
    const QString listOut = dir.filePath(QStringLiteral("list.json"));
    const QString reportOut = dir.filePath(QStringLiteral("report.jsonl"));
    std::vector<double> listMs, dryMs, dryCpu, listCpu;
    double dryRss = 0, listRss = 0;
    qint64 listed = 0, reported = 0;
    for (int round = 0; round < rounds; ++round) {
        const double cpu0 = serverCpuMs(raw);
        const CliRun l = runCliProcess(
            cli, common + QStringList { QStringLiteral("--json"), QStringLiteral("list") }, listOut, true);
        const double cpu1 = serverCpuMs(raw);
        const CliRun d = runCliProcess(cli,
            common
                + QStringList { QStringLiteral("--json"), QStringLiteral("reap"), QStringLiteral("--policy"), policy,
                    QStringLiteral("--dry-run") },
            reportOut, true);
        const double cpu2 = serverCpuMs(raw);
        listed = l.locks;
        reported = toRelease(reportOut);
        report(QStringLiteral("round %1: list --json %2 ms (peak RSS %3 MiB, %4 locks); reap --dry-run %5 ms (peak RSS "
                              "%6 MiB, %7 to release)")
                   .arg(round + 1)
                   .arg(l.wallMs, 0, 'f', 0)
                   .arg(l.rssMb, 0, 'f', 1)
                   .arg(l.locks)
                   .arg(d.wallMs, 0, 'f', 0)
                   .arg(d.rssMb, 0, 'f', 1)
                   .arg(reported));
        listMs.push_back(l.wallMs);
        dryMs.push_back(d.wallMs);
        listCpu.push_back(cpu1 - cpu0);
        dryCpu.push_back(cpu2 - cpu1);
        listRss = qMax(listRss, l.rssMb);
        dryRss = qMax(dryRss, d.rssMb);
    }
    // The approved run: the report it re-checks against is the last dry run's file.
    const CliRun approved = runCliProcess(cli,
        common
            + QStringList { QStringLiteral("--json"), QStringLiteral("reap"), QStringLiteral("--policy"), policy,
                QStringLiteral("--approve"), reportOut },
        dir.filePath(QStringLiteral("approved.jsonl")), true);
    const qint64 left = deadLeft(raw, dead);
    report(QStringLiteral("approved run: %1 ms for %2 releases (%3 ms each, with the run's own pass), %4 left")
               .arg(approved.wallMs, 0, 'f', 0)
               .arg(reported)
               .arg(approved.wallMs / qMax<qint64>(1, reported), 0, 'f', 2)
               .arg(left));
    if (!server.isPrivate()) {
        const qint64 removed = removeSeeded(raw, &error);
        report(QStringLiteral("removed the %1 keys this run seeded").arg(removed));
    }
    const bool ok = reported == dead && left == 0;
    if (!ok)
        std::fprintf(stderr, "reported %lld to release and left %lld of %d dead locks\n",
            static_cast<long long>(reported), static_cast<long long>(left), dead);
    const double list = median(listMs), dry = median(dryMs);
    printJsonLine(JsonLine()
                      .add(QStringLiteral("bench"), "reap")
                      .add(QStringLiteral("locks"), locks)
                      .add(QStringLiteral("other_locks"), otherLocks)
                      .add(QStringLiteral("noise_keys"), noise)
                      .add(QStringLiteral("dead_locks"), dead)
                      .add(QStringLiteral("rounds"), rounds)
                      .add(QStringLiteral("to_release"), reported)
                      .add(QStringLiteral("left_after_approval"), left)
                      .add(QStringLiteral("reap_dry_run_ms"), dry)
                      .add(QStringLiteral("reap_dry_run_server_cpu_ms"), median(dryCpu))
                      .add(QStringLiteral("reap_dry_run_rss_peak_mb"), dryRss)
                      .add(QStringLiteral("reap_approved_ms"), approved.wallMs)
                      .add(QStringLiteral("baseline"),
                          JsonLine()
                              .add(QStringLiteral("list_json_ms"), list)
                              .add(QStringLiteral("list_json_server_cpu_ms"), median(listCpu))
                              .add(QStringLiteral("list_json_rss_peak_mb"), listRss)
                              .add(QStringLiteral("locks_listed"), listed))
                      .add(QStringLiteral("ratio"),
                          JsonLine()
                              .add(QStringLiteral("list_json_vs_reap_dry_run"), list / dry)
                              .add(QStringLiteral("list_server_cpu_vs_reap_dry_run_server_cpu"),
                                  median(listCpu) / qMax(0.001, median(dryCpu)))
                              .add(QStringLiteral("reap_dry_run_vs_approved_run"), dry / approved.wallMs)));
    return ok ? 0 : 1;
}
