#include "commands.h"

#include "cliwords.h"
#include "commandlist.h"

#include "clients/tracestore.h"
#include "kinds/custom/ownertemplate.h"
#include "kinds/locklayout.h"
#include "kinds/locklayouts.h"
#include "kinds/locklibraries.h"
#include "kinds/locknames.h"
#include "liveness/holderwatch.h"
#include "lock/lockclient.h"
#include "ops/auditlog.h"
#include "ops/auditnotifier.h"
#include "ops/auditrecord.h"
#include "redis/bytesformat.h"
#include "redis/redisrouter.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QJsonObject>
#include <QTimer>

#include <iostream>
#include <string>

namespace LockScope::Cli {

Command::Command(const QCommandLineParser &parser, ConnectionOptions connection, QObject *parent)
    : QObject(parent)
    , m_parser(parser)
    , m_connection(std::move(connection))
    , m_out(parser.isSet(QStringLiteral("json")) || parser.isSet(QStringLiteral("jsonl")))
{ }

void Command::finish(int exitCode)
{
    if (m_finished)
        return;
    m_finished = true;
    // Whatever the command last sent (a release, an unlock latch's DEL) must reach the server before the
    // process goes; a dead connection has nothing left to wait for.
    QElapsedTimer waited;
    waited.start();
    auto *poll = new QTimer(this);
    const auto done = [this, poll, waited, exitCode] {
        RedisCommander *c = m_client ? m_client->connection() : nullptr;
        if (c && c->isReady() && c->pendingCount() > 0 && waited.elapsed() < 2000) {
            c->flushDeferred();
            return;
        }
        // A notification on its way (its own deadline is shorter) is let through before the process goes.
        if (m_notifier && m_notifier->pending() > 0 && waited.elapsed() < 15000)
            return;
        poll->stop();
        emit finished(exitCode);
    };
    connect(poll, &QTimer::timeout, this, done);
    poll->start(5);
    done();
}

LockClient *Command::makeClient(int watchdogTimeoutMs)
{
    LockClientOptions options;
    options.stringPatterns = stringLockPatterns();
    if (watchdogTimeoutMs > 0)
        options.watchdogTimeoutMs = watchdogTimeoutMs;
    auto *client = new LockClient(m_connection, options, this);
    m_client = client;
    auto *connection = client->connection();
    connect(connection, &RedisCommander::disconnected, this, [this, connection](const RedisError &error) {
        // Only the first connection matters here: later drops are retried on demand by the next command.
        if (!connection->property("wasReady").toBool())
            finish(m_out.fail(error));
    });
    connect(connection, &RedisCommander::ready, this, [connection] { connection->setProperty("wasReady", true); });
    // On standard error, so JSON output stays parseable.
    connect(client, &LockClient::publishNotice, this,
        [this](const QString &text) { m_out.error(tr("warning: %1").arg(text)); });
    return client;
}

bool Command::production() const
{
    return m_profile && m_profile->production;
}

bool Command::productionAllows(const QByteArray &target)
{
    if (!production() || !m_parser.isSet(QStringLiteral("yes")))
        return true;
    // A production server: --yes alone is not a confirmation, the name typed with it is.
    if (m_parser.value(QStringLiteral("confirm-name")) == escapeBytes(target, 4096))
        return true;
    m_out.error(tr("%1 is a production server: --yes needs --confirm-name %2 (the name typed); nothing changed")
                    .arg(m_profile->name, escapeBytes(target, 200)));
    finish(ExitUsage);
    return false;
}

bool Command::confirm(const QString &question, const QByteArray &target)
{
    // On a production server a "y" is not enough: the lock's (or client's) name is typed, as shown.
    const bool typed = production() && !target.isEmpty();
    const QString asked = typed ? QString(question).replace(QStringLiteral(" [y/N] "), QString()) + QLatin1Char('\n')
            + tr("%1 is a production server: type %2 to confirm: ").arg(m_profile->name, escapeBytes(target, 4096))
                                : question;
    std::cerr << asked.toStdString() << std::flush;
    std::string answer;
    std::getline(std::cin, answer);
    if (typed ? QString::fromStdString(answer) == escapeBytes(target, 4096)
              : (answer == "y" || answer == "Y" || answer == "yes"))
        return true;
    m_out.error(tr("cancelled; nothing changed"));
    finish(ExitNotDone);
    return false;
}

bool Command::auditable(const QString &action)
{
    QString error;
    if (AuditLog::writable(&error))
        return true;
    m_out.error(tr("%1 refused: the audit log %2 cannot be written (%3); nothing changed. Every write is audited: "
                   "make the file writable, or point $LOCKSCOPE_AUDIT_LOG at one that is")
                    .arg(action, AuditLog::path(), error));
    finish(ExitRefused);
    return false;
}

QString Command::positional(int index) const
{
    return m_parser.positionalArguments().value(index);
}

QByteArray Command::lockName() const
{
    const QString typed = positional(1);
    if (m_parser.isSet(QStringLiteral("hex")))
        return bytesFromHex(typed).value_or(QByteArray());
    return unescapeBytes(typed);
}

bool Command::badHexName()
{
    if (!m_parser.isSet(QStringLiteral("hex")) || positional(1).isEmpty() || bytesFromHex(positional(1)))
        return false;
    m_out.error(tr("--hex takes the name as pairs of hex digits (6f72646572733a3432 is orders:42), not '%1'")
                    .arg(positional(1)));
    finish(ExitUsage);
    return true;
}

void Command::useProfile(const ConnectionProfile &profile)
{
    m_profile = profile;
}

QByteArray Command::keyPattern() const
{
    if (m_parser.isSet(QStringLiteral("pattern")))
        return m_parser.value(QStringLiteral("pattern")).toUtf8();
    if (m_profile && !m_profile->pattern.trimmed().isEmpty())
        return m_profile->pattern.trimmed().toUtf8();
    return "*";
}

StringLockPatterns Command::stringLockPatterns() const
{
    StringLockPatterns patterns;
    const bool typed
        = m_parser.isSet(QStringLiteral("no-string-locks")) || m_parser.isSet(QStringLiteral("string-locks"));
    if (m_profile && !typed) {
        // Where the profile looks, with the names it declares as a library's.
        patterns = m_profile->stringLockPatterns();
    } else if (!m_parser.isSet(QStringLiteral("no-string-locks"))) {
        QList<QByteArray> globs;
        for (const QString &glob : m_parser.values(QStringLiteral("string-locks")))
            globs << glob.toUtf8();
        patterns = StringLockPatterns(globs.isEmpty() ? StringLockPatterns::defaults() : globs);
    }
    // Declared names count even with --no-string-locks: the person named them as a library's.
    for (const QString &entry : m_parser.values(QStringLiteral("layout-pattern"))) {
        QByteArray library, glob;
        if (StringLockPatterns::parseDeclaration(entry.toUtf8(), &library, &glob))
            patterns.declare(library, glob);
    }
    // Home-grown locks (checked when the options were read: checkLibraryOptions).
    for (const QString &entry : m_parser.values(QStringLiteral("owner-template"))) {
        QString error;
        if (const std::optional<OwnerTemplate> t = OwnerTemplate::parse(entry.toUtf8(), &error))
            patterns.addTemplate(*t);
    }
    return patterns;
}

bool Command::monitorOptions(LockMonitor::Options *options, bool rescanOption) const
{
    if (m_parser.isSet(QStringLiteral("pattern")) || m_profile)
        options->pattern = keyPattern();
    options->stringPatterns = stringLockPatterns();
    if (rescanOption && m_parser.isSet(QStringLiteral("interval"))) {
        bool ok = false;
        options->rescanIntervalMs = m_parser.value(QStringLiteral("interval")).toInt(&ok);
        if (!ok || options->rescanIntervalMs < 10) {
            m_out.error(QCoreApplication::translate("Cli", "--interval takes milliseconds (at least 10)"));
            return false;
        }
    }
    return true;
}

HolderWatch *Command::holderWatch(RedisRouter *router)
{
    auto *watch = new HolderWatch(router, this);
    watch->setStringPatterns(stringLockPatterns());
    if (const std::optional<TraceFindings> trace = TraceStore::load(m_connection))
        watch->addTrace(*trace);
    return watch;
}

QString Command::describeHolders(const LockNow &now) const
{
    const QString name = escapeBytes(now.name, 200);
    if (now.holders.isEmpty())
        return tr("%1 is not locked").arg(name);
    QString ttl = now.ttlMs == -1 ? tr("no TTL") : tr("ttl %1 ms").arg(now.ttlMs);
    if (!now.mode.isEmpty())
        ttl = tr("%1 mode, %2").arg(modeWord(now.mode), ttl);
    // A bare token says nothing of a count: it is the one holder (a sorted set's members are listed as holders).
    if (now.layout->capabilities().tokenHolder && now.holders.size() == 1)
        return tr("%1 is a %2 lock held by token %3, %4")
            .arg(name, QString::fromLatin1(now.layout->id()), escapeBytes(now.holders.first().owner, 200), ttl);
    QStringList holders;
    for (const LockHolder &h : now.holders)
        holders << tr("%1 (count %2)").arg(escapeBytes(h.owner, 200)).arg(h.count);
    return tr("%1 is held by %2, %3").arg(name, holders.join(QStringLiteral(", ")), ttl);
}

void Command::audit(AuditRecord record)
{
    if (m_parser.isSet(QStringLiteral("reason")))
        record.setReason(m_parser.value(QStringLiteral("reason")));
    QString error;
    QJsonObject line;
    if (!record.append(AuditRecord::Writer::Cli, &error, &line)) {
        m_out.error(QCoreApplication::translate("Cli", "warning: could not write the audit log %1: %2")
                        .arg(AuditLog::path(), error));
        line = record.toJson(AuditRecord::Writer::Cli); // told all the same, without the log's stamp
    }
    notify(line);
}

void Command::notify(const QJsonObject &line)
{
    NotifyTargets targets;
    for (const QString &url : m_parser.values(QStringLiteral("notify")))
        targets.webhooks << QUrl(url);
    if (m_profile)
        targets.add(m_profile->notify);
    if (m_parser.isSet(QStringLiteral("syslog")) || m_parser.isSet(QStringLiteral("syslog-socket")))
        targets.syslogSocket = m_parser.isSet(QStringLiteral("syslog-socket"))
            ? m_parser.value(QStringLiteral("syslog-socket"))
            : QStringLiteral("/dev/log");
    if (targets.isEmpty())
        return;
    if (!m_notifier) {
        m_notifier = new AuditNotifier(targets, this);
        connect(m_notifier, &AuditNotifier::failed, this,
            [this](const QString &why) { m_out.error(tr("warning: could not notify %1").arg(why)); });
    }
    m_notifier->notify(line);
}

bool readLockTimes(const QCommandLineParser &parser, const Output &out, LockTimes *times)
{
    const auto readMs = [&parser](const QString &option, qint64 *value, qint64 min) {
        if (!parser.isSet(option))
            return true;
        bool ok = false;
        *value = parser.value(option).toLongLong(&ok);
        return ok && *value >= min;
    };
    if (!readMs(QStringLiteral("lease"), &times->lease, 1) || !readMs(QStringLiteral("wait"), &times->wait, -1)
        || !readMs(QStringLiteral("hold"), &times->hold, 0)
        || !readMs(QStringLiteral("watchdog-timeout"), &times->watchdogTimeout, 3)) {
        out.error(QCoreApplication::translate(
            "Cli", "--lease, --wait, --hold and --watchdog-timeout take a number of milliseconds"));
        return false;
    }
    if (parser.isSet(QStringLiteral("lease")) && parser.isSet(QStringLiteral("watchdog"))) {
        out.error(QCoreApplication::translate(
            "Cli", "--lease and --watchdog exclude each other: a lease is either fixed or renewed"));
        return false;
    }
    return true;
}

QList<QCommandLineOption> commandOptions()
{
    return {
        { QStringLiteral("kind"),
            QCoreApplication::translate("Cli", "lock kind: %1 (default: %2)")
                .arg(LockLayouts::modeIds().join(QLatin1String(", ")),
                    QLatin1String(LockLayouts::mode(LockMode::Reentrant).id)),
            QStringLiteral("KIND") },
        { QStringLiteral("lease"),
            QCoreApplication::translate("Cli", "lock: explicit lease in ms (no watchdog); expire: the lease to give"),
            QStringLiteral("MS") },
        { QStringLiteral("watchdog"),
            QCoreApplication::translate("Cli", "renew the lease with the watchdog (the default without --lease)") },
        { QStringLiteral("watchdog-timeout"),
            QCoreApplication::translate("Cli", "watchdog lease in ms, renewed every third of it (default 30000)"),
            QStringLiteral("MS") },
        { QStringLiteral("wait"),
            QCoreApplication::translate("Cli", "wait up to MS for the lock (default 0: try once; -1: forever)"),
            QStringLiteral("MS") },
        { QStringLiteral("hold"),
            QCoreApplication::translate(
                "Cli", "hold for MS, then release (default: until SIGINT, SIGTERM or end of input)"),
            QStringLiteral("MS") },
        { QStringLiteral("owner"),
            QCoreApplication::translate("Cli", "the holder to release for, as UUID:TID; explain: whose hold to tell"),
            QStringLiteral("UUID:TID") },
        { QStringLiteral("hex"),
            QCoreApplication::translate("Cli",
                "the lock name is given as hex digits (a binary name; list and show print it with \\xNN escapes)") },
        { QStringLiteral("notify"),
            QCoreApplication::translate("Cli",
                "every write: also POST its audit record as JSON (with a chat \"text\" line) to this webhook URL; "
                "repeatable"),
            QStringLiteral("URL") },
        { QStringLiteral("syslog"),
            QCoreApplication::translate("Cli", "every write: also send its audit record to the local syslog") },
        { QStringLiteral("syslog-socket"),
            QCoreApplication::translate("Cli", "the local syslog socket for --syslog (default /dev/log)"),
            QStringLiteral("PATH") },
        { QStringLiteral("confirm-name"),
            QCoreApplication::translate(
                "Cli", "with --yes on a production profile: the lock's (or client's) name, typed, as the confirmation"),
            QStringLiteral("NAME") },
        { QStringLiteral("even-if-alive"),
            QCoreApplication::translate("Cli",
                "release-client: release holders judged alive all the same (once you know the client is gone)") },
        { QStringLiteral("db"),
            QCoreApplication::translate("Cli",
                "record, serve-metrics and the questions (history, at, explain, client, export): the recording "
                "(an SQLite file, the default is in the data directory; or postgresql://user@host:port/database)"),
            QStringLiteral("FILE|URL") },
        {
            QStringLiteral("no-record"),
            QCoreApplication::translate("Cli", "serve-metrics: serve the metrics without recording the events"),
        },
        { QStringLiteral("retain"),
            QCoreApplication::translate(
                "Cli", "record, serve-metrics: keep this long (default 7d); the oldest goes while recording"),
            QStringLiteral("DURATION") },
        { QStringLiteral("max-size"),
            QCoreApplication::translate(
                "Cli", "record, serve-metrics: keep the recording's data under this size (default 1G)"),
            QStringLiteral("SIZE") },
        { QStringLiteral("redact"),
            QCoreApplication::translate(
                "Cli", "record, serve-metrics: lock names matching this glob are stored as their hash (repeatable)"),
            QStringLiteral("GLOB") },
        { QStringLiteral("since"),
            QCoreApplication::translate("Cli",
                "history, client, export, advise, stats --db: from this moment (ISO 8601 with a zone, or epoch ms)"),
            QStringLiteral("T") },
        { QStringLiteral("until"),
            QCoreApplication::translate("Cli",
                "history, client, export, advise, stats --db: up to this moment (ISO 8601 with a zone, or epoch ms)"),
            QStringLiteral("T") },
        { QStringLiteral("lock"),
            QCoreApplication::translate("Cli", "explain: the lock the error is about (when the message names none)"),
            QStringLiteral("NAME") },
        { QStringLiteral("around"),
            QCoreApplication::translate(
                "Cli", "explain: when the error was seen (ISO 8601 with a zone, or epoch ms; default: the log line's)"),
            QStringLiteral("T") },
        { QStringLiteral("format"), QCoreApplication::translate("Cli", "export: jsonl (the default) or csv"),
            QStringLiteral("FORMAT") },
        { QStringLiteral("policy"),
            QCoreApplication::translate("Cli", "reap: the policy file (YAML: rules, protect, max_per_run)"),
            QStringLiteral("FILE") },
        { QStringLiteral("reap-policy"),
            QCoreApplication::translate("Cli",
                "serve-metrics: also run the guarded reaper with this policy file (reports always; releases only "
                "when the policy is unattended)"),
            QStringLiteral("FILE") },
        { QStringLiteral("approve"),
            QCoreApplication::translate(
                "Cli", "reap: release what this report approves: its report_sha256, or the file its dry run wrote"),
            QStringLiteral("HASH|FILE") },
        { QStringLiteral("reason"),
            QCoreApplication::translate("Cli", "why: written into the action's audit record as its reason"),
            QStringLiteral("TEXT") },
        { QStringLiteral("expect-owner"),
            QCoreApplication::translate("Cli", "force-release only if this owner still holds the lock"),
            QStringLiteral("UUID:TID") },
        { QStringLiteral("permits"),
            QCoreApplication::translate("Cli", "add-permits: how many permits to add (default 1)"),
            QStringLiteral("N") },
        { QStringLiteral("permit"),
            QCoreApplication::translate("Cli", "release-permit: the id of the permit to give back"),
            QStringLiteral("ID") },
        { QStringLiteral("expect-count"),
            QCoreApplication::translate("Cli", "open-latch: open only while the latch still holds this count"),
            QStringLiteral("N") },
        { QStringLiteral("pattern"),
            QCoreApplication::translate("Cli",
                "list, watch, stats, top, serve-metrics, blockers, stuck, release-client: only lock names matching "
                "this "
                "glob (default *)"),
            QStringLiteral("GLOB") },
        { QStringLiteral("string-locks"),
            QCoreApplication::translate("Cli",
                "list, show, watch: a string key is a lock only when its name matches one of these globs and it has "
                "a TTL; repeat for several (default: lock:* mutex:* *:lock)"),
            QStringLiteral("GLOB") },
        { QStringLiteral("no-string-locks"),
            QCoreApplication::translate("Cli", "list, show, watch: look for no string locks") },
        { QStringLiteral("layout-pattern"),
            QCoreApplication::translate("Cli",
                "key names that belong to LIBRARY (a library whose keys have no fixed prefix: spring, redis-py, "
                "redsync, ...); adds to its default patterns; repeatable"),
            QStringLiteral("LIBRARY=GLOB") },
        { QStringLiteral("owner-template"),
            QCoreApplication::translate("Cli",
                "a home-grown lock scheme: GLOB=SOURCE[,ITEM...] where SOURCE is value, json:$.path or regex:PATTERN "
                "(named groups), ITEMs host=, pid=, since=, run= (JSON paths), heartbeat=KEY-PATTERN, "
                "heartbeat-age=SECONDS; repeatable"),
            QStringLiteral("GLOB=SPEC") },
        { QStringLiteral("library"),
            QCoreApplication::translate("Cli", "list: only locks of this library (redisson, string, shedlock, ...)"),
            QStringLiteral("NAME") },
        { QStringLiteral("jsonl"), QCoreApplication::translate("Cli", "list: one JSON lock object per line") },
        { QStringLiteral("interval"),
            QCoreApplication::translate("Cli",
                "watch, stats, serve-metrics: ms between re-scans when the server sends no keyspace events (default "
                "5000); top: ms between redraws (default 2000)"),
            QStringLiteral("MS") },
        { QStringLiteral("seconds"),
            QCoreApplication::translate(
                "Cli", "stats: how long to watch; trace: how long to trace (default 10, at most 300); in seconds"),
            QStringLiteral("N") },
        { QStringLiteral("observe"),
            QCoreApplication::translate("Cli",
                "show: watch the lock for MS first, so that its renewals are seen (the liveness verdict needs them); "
                "stuck: watch the locks for MS first, so that stopped renewals and waiters left on a free lock are "
                "seen "
                "(default 0: one read); reap: watch at least this long, beyond the policy's verdict_for"),
            QStringLiteral("MS") },
        { QStringLiteral("limit"),
            QCoreApplication::translate(
                "Cli", "top, serve-metrics: the N most contended locks (default 20); stats: at most N locks"),
            QStringLiteral("N") },
        { QStringLiteral("listen"),
            QCoreApplication::translate("Cli",
                "serve-metrics: the address to serve /metrics on (default 127.0.0.1:9464; port 0: any free port)"),
            QStringLiteral("HOST:PORT") },
        { QStringLiteral("enable-keyspace-events"),
            QCoreApplication::translate(
                "Cli", "watch: first switch on the keyspace notifications it needs (CONFIG SET; a write, audited)") },
        { QStringLiteral("dry-run"),
            QCoreApplication::translate(
                "Cli", "repair-queue, release-client, reap: report what would be done, change nothing") },
        { QStringLiteral("recheck"),
            QCoreApplication::translate("Cli",
                "repair-queue: ms between the two looks that find a waiter nobody listens for dead (default 3000)"),
            QStringLiteral("MS") },
        { QStringLiteral("yes"), QCoreApplication::translate("Cli", "do not ask for confirmation") },
        { QStringLiteral("list"), QCoreApplication::translate("Cli", "guide: list the scenarios") },
        { QStringLiteral("speed"),
            QCoreApplication::translate("Cli",
                "guide: the watchdog timeout T every time scales with: fast (3000 ms), normal (6000, the default), "
                "real (30000) or MS"),
            QStringLiteral("SPEED") },
        { QStringLiteral("step"),
            QCoreApplication::translate("Cli", "guide: wait for Enter before each step (not inside a live phase)") },
        { QStringLiteral("script-version"),
            QCoreApplication::translate("Cli",
                "guide: the Redisson whose unlock effect is played: 4 (default), 3.22, "
                "3.21 or 3.10.5"),
            QStringLiteral("V") },
        { QStringLiteral("allow-writes"),
            QCoreApplication::translate(
                "Cli", "guide: let the demo write guided:* keys on the server given with --url") },
        { QStringLiteral("clients"), QCoreApplication::translate("Cli", "demo: simulated clients (default 6)"),
            QStringLiteral("N") },
        { QStringLiteral("locks"), QCoreApplication::translate("Cli", "demo: lock names to contend for (default 4)"),
            QStringLiteral("N") },
    };
}

void addCommandOptions(QCommandLineParser &parser)
{
    parser.addOptions(commandOptions());
}

bool checkLibraryOptions(const QCommandLineParser &parser, const Output &out)
{
    // The one registry of library ids (kinds/locklibraries.h): what JSON can write, --library takes.
    const auto joined = [](const QList<QByteArray> &ids) {
        QStringList names;
        for (const QByteArray &id : ids)
            names << QString::fromLatin1(id);
        return names.join(QStringLiteral(", "));
    };
    for (const QString &entry : parser.values(QStringLiteral("layout-pattern"))) {
        QByteArray library, glob;
        if (!StringLockPatterns::parseDeclaration(entry.toUtf8(), &library, &glob)) {
            out.error(QCoreApplication::translate("Cli",
                "--layout-pattern takes LIBRARY=GLOB with a library whose keys have no fixed prefix, one of: %1 "
                "(got \"%2\")")
                          .arg(joined(LockLibraries::declarable()), entry));
            return false;
        }
    }
    for (const QString &entry : parser.values(QStringLiteral("owner-template"))) {
        QString error;
        if (!OwnerTemplate::parse(entry.toUtf8(), &error)) {
            out.error(QCoreApplication::translate("Cli", "--owner-template: %1").arg(error));
            return false;
        }
    }
    const QString library = parser.value(QStringLiteral("library"));
    if (parser.isSet(QStringLiteral("library")) && !LockLibraries::isKnown(library.toUtf8())) {
        out.error(QCoreApplication::translate("Cli", "--library takes one of: %1 (got \"%2\")")
                      .arg(joined(LockLibraries::ids()), library));
        return false;
    }
    return true;
}

Command *createCommand(
    const QString &name, const QCommandLineParser &parser, ConnectionOptions connection, QObject *parent)
{
    const CommandSpec *spec = findCommand(name);
    return spec ? spec->create(parser, std::move(connection), parent) : nullptr;
}

} // namespace LockScope::Cli
