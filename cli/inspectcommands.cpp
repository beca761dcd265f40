#include "inspectcommands.h"

#include "cliwords.h"

#include "kinds/lockatname.h"
#include "kinds/lockjson.h"
#include "kinds/locklayouts.h"
#include "kinds/lockscanner.h"
#include "liveness/holderwatch.h"
#include "models/locktexts.h"
#include "redis/bytesformat.h"
#include "redis/jsonwriter.h"
#include "redis/publishmoderesolver.h"
#include "redis/redisconnection.h"
#include "redis/redisrouter.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>

#include <algorithm>
#include <cstdio>
#include <memory>

namespace LockScope::Cli {

ConnectionOptions readOnly(ConnectionOptions options)
{
    // The monitor side of the CLI never writes, whatever flags it was given.
    options.readOnly = true;
    return options;
}

QString ttlText(qint64 ttl)
{
    return ttl == -1 ? QCoreApplication::translate("Cli", "none") : LockTexts::durationText(ttl);
}

QJsonObject lockJson(const LockInfo &lock, qint64 nowMs, const HolderFactsSource &facts)
{
    return QJsonDocument::fromJson(lockJsonText(lock, nowMs, facts)).object();
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
    options.partialOnNodeFailure = true; // a node down: the others' locks, said to be partial, never an empty list
    auto *scanner = new LockScanner(connection, options, this);
    // The batches as the scanner found them, never merged into one list: a million locks are not copied into a list
    // that grows (twice their size for a moment) just to be sorted; an index of pointers is sorted instead.
    auto batches = std::make_shared<std::vector<QList<LockInfo>>>();
    connect(scanner, &LockScanner::locksFound, this,
        [batches](const QList<LockInfo> &found) { batches->push_back(found); });
    connect(scanner, &LockScanner::finished, this, [this, batches, connection, scanner](const RedisError &error, int) {
        if (error.isError()) {
            finish(m_out.fail(error));
            return;
        }
        m_partial = scanner->partial();
        // Each holder's liveness from this one read: its connections (a trace's findings against CLIENT LIST) and
        // its process. Only the JSON carries it; the table stays one line a lock.
        if (!m_out.json() && !m_parser.isSet(QStringLiteral("jsonl"))) {
            print(*batches, nullptr);
            return;
        }
        HolderWatch *watch = holderWatch(connection);
        // CLIENT LIST denied leaves each holder's connection unknown, said in its evidence: the list itself is whole.
        watch->readClients([this, batches, watch] { print(*batches, watch); });
    });
    scanWhenReady(connection, scanner);
}

void ListCommand::print(const std::vector<QList<LockInfo>> &batches, const HolderWatch *watch)
{
    const bool byLibrary = m_parser.isSet(QStringLiteral("library"));
    const QByteArray library = m_parser.value(QStringLiteral("library")).toUtf8();
    std::vector<const LockInfo *> sorted;
    for (const QList<LockInfo> &batch : batches) {
        for (const LockInfo &l : batch) {
            if (!byLibrary || l.library == library)
                sorted.push_back(&l);
        }
    }
    std::sort(sorted.begin(), sorted.end(), [](const LockInfo *a, const LockInfo *b) { return a->name < b->name; });
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    const HolderFactsSource facts = watch ? watch->factsSource() : HolderFactsSource();
    // One lock at a time, written as text: the listing of a big keyspace never stands whole in memory as JSON.
    if (m_parser.isSet(QStringLiteral("jsonl"))) {
        QByteArray text;
        for (const LockInfo *l : sorted) {
            text.clear();
            JsonWriter writer(&text);
            writeLockJson(writer, *l, now, facts);
            m_out.jsonLine(text);
        }
        // The last line says what could not be seen: never a short list taken for the whole.
        if (!m_partial.isEmpty())
            m_out.jsonLine(partialJson());
        std::fflush(stdout);
    } else if (m_out.json()) {
        // A partial answer is an object: {"locks": [...], "partial": true, "why": [...]}; a script that takes the
        // bare array fails loudly instead of trusting a list with a server's locks missing.
        m_out.arrayStart(m_partial.isEmpty() ? nullptr : "locks");
        QByteArray text;
        for (size_t i = 0; i < sorted.size(); ++i) {
            text.clear();
            JsonWriter writer(&text);
            writeLockJson(writer, *sorted[i], now, facts);
            m_out.arrayElement(text, i == 0);
        }
        if (m_partial.isEmpty()) {
            m_out.arrayEnd();
        } else {
            QJsonObject members = partialJson();
            const QByteArray inner = QJsonDocument(members).toJson(QJsonDocument::Compact);
            m_out.arrayEnd(',' + inner.mid(1, inner.size() - 2));
        }
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
            const QString kind = kindWord(l.kind) + (l.mode.isEmpty() ? QString() : QLatin1Char('/') + modeWord(l.mode))
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
        for (const QString &why : std::as_const(m_partial))
            m_out.error(tr("partial: %1").arg(why));
    }
    finish(ExitDone);
}

QJsonObject ListCommand::partialJson() const
{
    return QJsonObject { { QStringLiteral("partial"), true },
        { QStringLiteral("why"), QJsonArray::fromStringList(m_partial) } };
}

} // namespace LockScope::Cli
