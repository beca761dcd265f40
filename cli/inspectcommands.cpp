#include "inspectcommands.h"

#include "cliwords.h"

#include "kinds/lockatname.h"
#include "kinds/lockjson.h"
#include "kinds/locklayouts.h"
#include "kinds/lockscanner.h"
#include "models/locktexts.h"
#include "redis/bytesformat.h"
#include "redis/jsonwriter.h"
#include "redis/publishmoderesolver.h"
#include "redis/redisconnection.h"
#include "redis/redisrouter.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QJsonDocument>

#include <algorithm>
#include <cstdio>
#include <memory>

namespace LockScope::Cli {

namespace {
ConnectionOptions readOnly(ConnectionOptions options)
{
    // The monitor side of the CLI never writes, whatever flags it was given.
    options.readOnly = true;
    return options;
}

// A duration a person reads at a glance ("14 min 57 s", "28.0 s"), as the console shows it; --json keeps ttl_ms.
QString ttlText(qint64 ttl)
{
    return ttl == -1 ? QCoreApplication::translate("Cli", "none") : LockTexts::durationText(ttl);
}
} // namespace

QJsonObject lockJson(const LockInfo &lock, qint64 nowMs)
{
    return QJsonDocument::fromJson(lockJsonText(lock, nowMs)).object();
}

// Scans once the router knows what it talks to: every master of a cluster, or the one server.
void Command::scanWhenReady(RedisRouter *router, LockScanner *scanner)
{
    scanner->setScanNodes([router] {
        QList<RedisCommander *> nodes;
        for (RedisConnection *c : router->scanConnections())
            nodes << c;
        return nodes;
    });
    connect(router, &RedisRouter::modeDecided, scanner, [router, scanner](RedisRouter::Mode mode) {
        scanner->setShardWaiters(
            PublishModeResolver::listenerKinds(router->options().publishMode, mode == RedisRouter::Mode::Cluster)
                .contains(RedisSubscriptions::Kind::Shard));
        scanner->start();
    });
    connect(router, &RedisCommander::disconnected, this, [this, router](const RedisError &error) {
        if (router->mode() == RedisRouter::Mode::Probing)
            finish(m_out.fail(error));
    });
    if (router->mode() == RedisRouter::Mode::Probing)
        router->open();
    else
        Q_EMIT router->modeDecided(router->mode());
}

void ListCommand::start()
{
    auto *connection = new RedisRouter(readOnly(m_connection), this);
    LockScanner::Options options;
    options.pattern = keyPattern();
    options.stringPatterns = stringLockPatterns();
    options.deferAuxReads = true; // the list is printed at the end anyway: read only the aux keys the walk returned
    auto *scanner = new LockScanner(connection, options, this);
    // The batches as the scanner found them, never merged into one list: a million locks are not copied into a list
    // that grows (twice their size for a moment) just to be sorted; an index of pointers is sorted instead.
    auto batches = std::make_shared<std::vector<QList<LockInfo>>>();
    connect(scanner, &LockScanner::locksFound, this,
        [batches](const QList<LockInfo> &found) { batches->push_back(found); });
    connect(scanner, &LockScanner::finished, this, [this, batches](const RedisError &error, int) {
        if (error.isError()) {
            finish(m_out.fail(error));
            return;
        }
        const bool byLibrary = m_parser.isSet(QStringLiteral("library"));
        const QByteArray library = m_parser.value(QStringLiteral("library")).toUtf8();
        std::vector<const LockInfo *> sorted;
        for (const QList<LockInfo> &batch : *batches) {
            for (const LockInfo &l : batch) {
                if (!byLibrary || l.library == library)
                    sorted.push_back(&l);
            }
        }
        std::sort(sorted.begin(), sorted.end(), [](const LockInfo *a, const LockInfo *b) { return a->name < b->name; });
        const qint64 now = QDateTime::currentMSecsSinceEpoch();
        // One lock at a time, written as text: the listing of a big keyspace never stands whole in memory as JSON.
        if (m_parser.isSet(QStringLiteral("jsonl"))) {
            QByteArray text;
            for (const LockInfo *l : sorted) {
                text.clear();
                JsonWriter writer(&text);
                writeLockJson(writer, *l, now);
                m_out.jsonLine(text);
            }
            std::fflush(stdout);
        } else if (m_out.json()) {
            m_out.arrayStart();
            QByteArray text;
            for (size_t i = 0; i < sorted.size(); ++i) {
                text.clear();
                JsonWriter writer(&text);
                writeLockJson(writer, *sorted[i], now);
                m_out.arrayElement(text, i == 0);
            }
            m_out.arrayEnd();
        } else {
            m_out.line(tr("%n lock(s)", nullptr, int(sorted.size())));
            for (const LockInfo *lock : sorted) {
                const LockInfo &l = *lock;
                // A semaphore with permits taken says how many, beside what is free (as the console's table does).
                const QString counter = LockLayouts::forRecord(l.kind).counterSummary(l);
                const QString holder = !counter.isEmpty() ? counter
                    : l.holders.isEmpty()                 ? QStringLiteral("-")
                    : l.holders.size() == 1               ? escapeBytes(l.holders.first().owner, 120)
                                                          : tr("%n holders", nullptr, int(l.holders.size()));
                const qint64 count = l.holders.size() == 1 ? l.holders.first().count : 0;
                // A lock of another library than Redisson's says whose it is: "string [shedlock]".
                const QString kind = kindWord(l.kind)
                    + (l.mode.isEmpty() ? QString() : QLatin1Char('/') + modeWord(l.mode))
                    + (l.library.isEmpty() || l.library == "redisson" || l.library == "string"
                            ? QString()
                            : QStringLiteral(" [%1]").arg(QString::fromLatin1(l.library)));
                // Kinds and confidences: the ids --kind and JSON use in English, the language's own words otherwise.
                m_out.line(tr("%1  %2  %3  count %4  ttl %5  waiters %6  %7%8")
                               .arg(escapeBytes(l.name, 80), kind, holder)
                               .arg(count)
                               .arg(ttlText(l.ttlMs))
                               .arg(l.waiters < 0 ? QStringLiteral("?") : QString::number(l.waiters))
                               .arg(confidenceWord(l.confidence),
                                   l.warnings.isEmpty() ? QString() : QStringLiteral("  (!) ") + l.warnings.first()),
                    Output::Flush::Later);
            }
            std::fflush(stdout);
        }
        finish(ExitDone);
    });
    scanWhenReady(connection, scanner);
}

void ShowCommand::start()
{
    const QByteArray name = lockName();
    if (name.isEmpty()) {
        m_out.error(tr("show needs a lock name"));
        finish(ExitUsage);
        return;
    }
    auto *connection = new RedisRouter(readOnly(m_connection), this);
    LockScanner::Options options;
    options.stringPatterns = stringLockPatterns();
    auto *scanner = new LockScanner(connection, options, this);
    auto found = std::make_shared<QList<LockInfo>>();
    connect(scanner, &LockScanner::locksFound, this, [found](const QList<LockInfo> &locks) { *found << locks; });
    connect(scanner, &LockScanner::finished, this, [this, name, found, connection](const RedisError &error, int) {
        if (error.isError()) {
            finish(m_out.fail(error));
            return;
        }
        if (found->isEmpty()) {
            // Say what is there instead: nothing, or a value of another type (the cause of WRONGTYPE errors), in the
            // words every write by name refuses it with.
            LockAtName::explainNotALock(connection, name, stringLockPatterns(), [this](const QString &why) {
                m_out.error(why);
                finish(ExitNotDone);
            });
            return;
        }
        const LockInfo &l = found->first();
        const QJsonObject o = lockJson(l, QDateTime::currentMSecsSinceEpoch());
        QStringList lines { tr("%1: %2%3, confidence %4, ttl %5")
                                .arg(escapeBytes(l.name, 200), kindWord(l.kind),
                                    l.mode.isEmpty() ? QString() : tr(" in %1 mode").arg(modeWord(l.mode)),
                                    confidenceWord(l.confidence), ttlText(l.ttlMs)) };
        if (!l.library.isEmpty() && l.library != "redisson" && l.library != "string")
            lines << tr("  library: %1").arg(QString::fromLatin1(l.library));
        for (const LockHolder &h : l.holders) {
            QString details = h.deadReader ? tr(", dead reader") : QString();
            if (!h.host.isEmpty())
                details += tr(", host %1").arg(escapeBytes(h.host, 120));
            if (h.pid > 0)
                details += tr(", pid %1").arg(h.pid);
            if (!h.node.isEmpty())
                details += tr(", node %1").arg(QString::fromLatin1(h.node));
            if (h.sinceMs > 0)
                details += tr(", since %1")
                               .arg(QDateTime::fromMSecsSinceEpoch(h.sinceMs, Qt::UTC).toString(Qt::ISODateWithMs));
            if (h.expiresMs > 0)
                details += (h.expiresMs <= QDateTime::currentMSecsSinceEpoch() ? tr(", expired at %1")
                                                                               : tr(", expires at %1"))
                               .arg(QDateTime::fromMSecsSinceEpoch(h.expiresMs, Qt::UTC).toString(Qt::ISODateWithMs));
            lines << tr("  holder %1 (count %2)%3").arg(escapeBytes(h.owner, 120)).arg(h.count).arg(details);
        }
        if (l.counter >= 0)
            lines << tr("  %1").arg(LockLayouts::forRecord(l.kind).counterText(l.counter));
        for (const auto &[owner, deadline] : l.queue)
            lines << tr("  queued %1").arg(QString::fromUtf8(owner));
        if (LockLayouts::forRecord(l.kind).capabilities().wakeChannel) // without one nobody can listen
            lines
                << tr("  waiters listening: %1").arg(l.waiters < 0 ? QStringLiteral("?") : QString::number(l.waiters));
        for (const QString &e : l.evidence)
            lines << tr("  evidence: %1").arg(e);
        for (const QString &w : l.warnings)
            lines << tr("  warning: %1").arg(w);
        m_out.object(o, lines.join(QLatin1Char('\n')));
        finish(ExitDone);
    });
    scanner->readKeys({ name });
}

} // namespace LockScope::Cli
