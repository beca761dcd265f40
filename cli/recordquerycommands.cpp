#include "recordquerycommands.h"

#include "base/quantities.h"
#include "kinds/keyglob.h"
#include "lock/lockclient.h"
#include "ops/inspect.h"
#include "recording/explainer.h"
#include "recording/recordingstore.h"
#include "recording/timelinestate.h"
#include "redis/bytesformat.h"

#include <QDateTime>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStandardPaths>
#include <QTextStream>

#include <cstdio>

namespace LockScope::Cli {

namespace {
QString isoTime(qint64 epochMs)
{
    return QDateTime::fromMSecsSinceEpoch(epochMs, Qt::UTC).toString(Qt::ISODateWithMs);
}

QString localTime(qint64 epochMs)
{
    return QDateTime::fromMSecsSinceEpoch(epochMs).toString(Qt::ISODateWithMs);
}

// RFC 4180: quoted when it holds a comma, a quote or a line break, quotes doubled.
QString csvField(const QString &value)
{
    if (!value.contains(QLatin1Char(',')) && !value.contains(QLatin1Char('"')) && !value.contains(QLatin1Char('\n'))
        && !value.contains(QLatin1Char('\r')))
        return value;
    QString quoted = value;
    quoted.replace(QLatin1Char('"'), QStringLiteral("\"\""));
    return QLatin1Char('"') + quoted + QLatin1Char('"');
}
} // namespace

QString RecordingQuery::recordingPath() const
{
    return m_parser.isSet(QStringLiteral("db")) ? m_parser.value(QStringLiteral("db"))
                                                : QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation)
            + QStringLiteral("/lockscope/recording.sqlite");
}

bool RecordingQuery::openRecording(RecordingStore &store)
{
    const QString path = recordingPath();
    QString error;
    if (!m_parser.isSet(QStringLiteral("db")) && !QFile::exists(path)) {
        m_out.error(tr("no recording at %1: serve-metrics and record keep one there; or give --db FILE").arg(path));
        finish(ExitUsage);
        return false;
    }
    if (!store.open(path, false, &error)) {
        m_out.error(error);
        finish(ExitUsage);
        return false;
    }
    return true;
}

bool RecordingQuery::readWindow(qint64 *sinceMs, qint64 *untilMs)
{
    const bool hasSince = m_parser.isSet(QStringLiteral("since")), hasUntil = m_parser.isSet(QStringLiteral("until"));
    *sinceMs = hasSince ? parseTimeMs(m_parser.value(QStringLiteral("since"))) : -1;
    *untilMs = hasUntil ? parseTimeMs(m_parser.value(QStringLiteral("until"))) : -1;
    if ((hasSince && *sinceMs < 0) || (hasUntil && *untilMs < 0)) {
        m_out.error(tr("--since and --until take ISO 8601 times with a zone (2026-11-26T03:12:00Z) or epoch ms"));
        finish(ExitUsage);
        return false;
    }
    return true;
}

void RecordingQuery::readFailed(const QString &error)
{
    m_out.error(error);
    finish(ExitNotDone);
}

QJsonObject RecordingQuery::eventJson(const RecordedEvent &e)
{
    QJsonObject o { { QStringLiteral("ts"), isoTime(e.timeMs) },
        { QStringLiteral("event"), QString::fromLatin1(e.type) }, { QStringLiteral("name"), jsonText(e.name) },
        { QStringLiteral("owner"), jsonText(e.owner) }, { QStringLiteral("count"), e.count },
        { QStringLiteral("ttl_ms"), e.ttlMs }, { QStringLiteral("server"), QString::fromUtf8(e.server) },
        { QStringLiteral("source"), QStringLiteral("recording") } };
    if (!e.previousOwner.isEmpty())
        o.insert(QStringLiteral("previous_owner"), jsonText(e.previousOwner));
    if (e.lateMs >= 0)
        o.insert(QStringLiteral("late_ms"), e.lateMs);
    if (!e.kind.isEmpty())
        o.insert(QStringLiteral("kind"), QString::fromLatin1(e.kind));
    if (!e.library.isEmpty())
        o.insert(QStringLiteral("library"), QString::fromUtf8(e.library));
    if (e.type == "audit")
        o.insert(QStringLiteral("audit"), QJsonDocument::fromJson(e.detail.toUtf8()).object());
    else if (!e.detail.isEmpty())
        o.insert(QStringLiteral("detail"), e.detail);
    return o;
}

QString RecordingQuery::eventLine(const RecordedEvent &e, bool withName)
{
    QString detail = e.detail;
    if (e.type == "audit") {
        const QJsonObject a = QJsonDocument::fromJson(e.detail.toUtf8()).object();
        detail = tr("%1 by %2@%3: %4%5")
                     .arg(a.value(QStringLiteral("action")).toString(), a.value(QStringLiteral("user")).toString(),
                         a.value(QStringLiteral("host")).toString(), a.value(QStringLiteral("outcome")).toString(),
                         a.contains(QStringLiteral("reason"))
                             ? tr(", reason: %1").arg(a.value(QStringLiteral("reason")).toString())
                             : QString());
    }
    return QStringLiteral("%1  %2%3  %4%5%6")
        .arg(localTime(e.timeMs),
            withName && !e.name.isEmpty() ? escapeBytes(e.name, 120) + QStringLiteral("  ") : QString(),
            QString::fromLatin1(e.type), e.owner.isEmpty() ? QStringLiteral("-") : escapeBytes(e.owner, 120),
            e.count > 0 ? tr("  count %1").arg(e.count) : QString(),
            detail.isEmpty() ? QString() : QStringLiteral("  (") + detail + QLatin1Char(')'));
}

void HistoryCommand::start()
{
    const QByteArray name = lockName();
    qint64 since, until;
    RecordingStore store;
    if (!openWindow(store, &since, &until))
        return;
    QString error;
    // A redacted name is stored hashed: asked by its name, found by its hash too.
    QList<RecordedEvent> events = store.history(name, since, until, &error);
    if (error.isEmpty()
        && std::none_of(events.cbegin(), events.cend(), [](const RecordedEvent &e) { return !e.name.isEmpty(); }))
        events = store.history(NameRedaction::hashed(name), since, until, &error);
    if (!error.isEmpty()) {
        readFailed(error);
        return;
    }
    const bool any
        = std::any_of(events.cbegin(), events.cend(), [](const RecordedEvent &e) { return !e.name.isEmpty(); });
    QStringList lines;
    for (const RecordedEvent &e : events) {
        if (m_out.json())
            m_out.jsonLine(eventJson(e));
        else
            lines << eventLine(e, false);
    }
    if (!m_out.json())
        m_out.line(any ? lines.join(QLatin1Char('\n'))
                       : tr("%1: nothing recorded in that window").arg(escapeBytes(name, 200)));
    finish(any ? ExitDone : ExitNotDone);
}

void AtCommand::start()
{
    const QString typed = positional(1);
    const qint64 at = typed == QLatin1String("now") ? QDateTime::currentMSecsSinceEpoch() : parseTimeMs(typed);
    if (at < 0) {
        m_out.error(tr("at takes a moment: ISO 8601 with a zone (2026-11-26T03:12:00Z), epoch ms, or now"));
        finish(ExitUsage);
        return;
    }
    RecordingStore store;
    if (!openRecording(store))
        return;
    const QByteArray pattern = keyPattern();
    QString error;
    const QList<RecordedSnapshot> snapshots = store.snapshotsAt(at, &error);
    QStringList lines;
    int held = 0;
    for (const RecordedSnapshot &snapshot : snapshots) {
        const TimelineState state = TimelineState::at(store, snapshot, at, &error);
        if (!error.isEmpty())
            break;
        if (!state.seen()) {
            const QString why = tr("%1 at %2: not seen (%3)")
                                    .arg(QString::fromUtf8(snapshot.server), localTime(at), state.unseenReason());
            if (m_out.json())
                m_out.jsonLine(QJsonObject { { QStringLiteral("ts"), isoTime(at) },
                    { QStringLiteral("server"), QString::fromUtf8(snapshot.server) }, { QStringLiteral("seen"), false },
                    { QStringLiteral("reason"), state.unseenReason() } });
            else
                lines << why;
        }
        for (auto it = state.locks().cbegin(); it != state.locks().cend(); ++it) {
            if (!globMatch(pattern, it.key()))
                continue;
            QJsonArray holders;
            QStringList who;
            for (auto h = it->holders.cbegin(); h != it->holders.cend(); ++h) {
                if (h.key().isEmpty())
                    continue;
                QJsonObject o { { QStringLiteral("owner"), jsonText(h.key()) }, { QStringLiteral("count"), h->count } };
                if (h->sinceMs >= 0)
                    o.insert(QStringLiteral("since"), isoTime(h->sinceMs));
                holders.append(o);
                who << (h->sinceMs >= 0
                        ? tr("%1 ×%2 since %3").arg(escapeBytes(h.key(), 80)).arg(h->count).arg(localTime(h->sinceMs))
                        : tr("%1 ×%2").arg(escapeBytes(h.key(), 80)).arg(h->count));
            }
            if (!holders.isEmpty())
                ++held;
            if (m_out.json())
                m_out.jsonLine(QJsonObject { { QStringLiteral("ts"), isoTime(at) },
                    { QStringLiteral("server"), QString::fromUtf8(snapshot.server) },
                    { QStringLiteral("name"), jsonText(it.key()) },
                    { QStringLiteral("kind"), QString::fromLatin1(it->kind) },
                    { QStringLiteral("library"), QString::fromUtf8(it->library) },
                    { QStringLiteral("holders"), holders }, { QStringLiteral("seen"), state.seen() },
                    { QStringLiteral("source"), QStringLiteral("recording") } });
            else
                lines << QStringLiteral("%1  %2").arg(
                    escapeBytes(it.key(), 120), who.isEmpty() ? tr("(free)") : who.join(QStringLiteral(", ")));
        }
    }
    if (!error.isEmpty()) {
        readFailed(error);
        return;
    }
    if (!m_out.json())
        m_out.line(lines.isEmpty() ? tr("nothing held at %1").arg(localTime(at))
                                   : tr("at %1, %n lock(s) held:", nullptr, held).arg(localTime(at)) + QLatin1Char('\n')
                    + lines.join(QLatin1Char('\n')));
    finish(ExitDone);
}

void ClientCommand::start()
{
    const QByteArray owner = positional(1).toUtf8();
    qint64 since, until;
    RecordingStore store;
    if (!openWindow(store, &since, &until))
        return;
    EventQuery q;
    q.owner = owner;
    // A client id alone (a UUID, no thread): every thread of that client.
    q.ownerPrefix = !owner.contains(':');
    q.sinceMs = since;
    q.untilMs = until;
    QString error;
    QStringList lines;
    int n = 0;
    store.forEachEvent(
        q,
        [&](const RecordedEvent &e) {
            ++n;
            if (m_out.json())
                m_out.jsonLine(eventJson(e));
            else
                lines << eventLine(e, true);
            return true;
        },
        &error);
    if (!error.isEmpty()) {
        readFailed(error);
        return;
    }
    if (!m_out.json())
        m_out.line(n == 0 ? tr("%1: nothing recorded in that window").arg(escapeBytes(owner, 200))
                          : lines.join(QLatin1Char('\n')));
    finish(n > 0 ? ExitDone : ExitNotDone);
}

void ExportCommand::start()
{
    const QString format
        = m_parser.isSet(QStringLiteral("format")) ? m_parser.value(QStringLiteral("format")) : QStringLiteral("jsonl");
    if (format != QLatin1String("jsonl") && format != QLatin1String("csv")) {
        m_out.error(tr("--format takes jsonl or csv"));
        finish(ExitUsage);
        return;
    }
    qint64 since, until;
    RecordingStore store;
    if (!openWindow(store, &since, &until))
        return;
    const QByteArray pattern = keyPattern();
    EventQuery q;
    q.sinceMs = since;
    q.untilMs = until;
    QFile out;
    if (!out.open(stdout, QIODevice::WriteOnly)) {
        finish(ExitNotDone);
        return;
    }
    const bool csv = format == QLatin1String("csv");
    if (csv)
        out.write("ts,server,event,name,owner,previous_owner,count,ttl_ms,late_ms,kind,library,detail\n");
    QString error;
    store.forEachEvent(
        q,
        [&](const RecordedEvent &e) {
            if (!e.name.isEmpty() && !globMatch(pattern, e.name))
                return true;
            if (!csv) {
                out.write(QJsonDocument(eventJson(e)).toJson(QJsonDocument::Compact) + '\n');
                return true;
            }
            const QStringList fields { isoTime(e.timeMs), QString::fromUtf8(e.server), QString::fromLatin1(e.type),
                jsonText(e.name), jsonText(e.owner), jsonText(e.previousOwner), QString::number(e.count),
                QString::number(e.ttlMs), QString::number(e.lateMs), QString::fromLatin1(e.kind),
                QString::fromUtf8(e.library), e.detail };
            QStringList quoted;
            for (const QString &f : fields)
                quoted << csvField(f);
            out.write((quoted.join(QLatin1Char(',')) + QLatin1Char('\n')).toUtf8());
            return true;
        },
        &error);
    out.flush();
    if (!error.isEmpty()) {
        readFailed(error);
        return;
    }
    finish(ExitDone);
}

void ExplainCommand::start()
{
    ExplainRequest request;
    QString text = positional(1);
    if (text == QLatin1String("-")) {
        QFile in;
        if (in.open(stdin, QIODevice::ReadOnly))
            text = QString::fromUtf8(in.readAll());
    }
    const bool recognised = !text.isEmpty() && ExplainRequest::parse(text, &request);
    if (m_parser.isSet(QStringLiteral("owner")))
        request.owner = m_parser.value(QStringLiteral("owner")).toUtf8();
    if (m_parser.isSet(QStringLiteral("lock")))
        request.lock = unescapeBytes(m_parser.value(QStringLiteral("lock")));
    if (m_parser.isSet(QStringLiteral("around"))) {
        request.aroundMs = parseTimeMs(m_parser.value(QStringLiteral("around")));
        if (request.aroundMs < 0) {
            m_out.error(tr("--around takes ISO 8601 with a zone (2026-11-26T03:12:15Z) or epoch ms"));
            finish(ExitUsage);
            return;
        }
    }
    if (!text.isEmpty() && !recognised && request.owner.isEmpty() && request.lock.isEmpty()) {
        m_out.error(tr("not a message LockScope knows (Redisson's, redsync's, redis-py's, python-redis-lock's, "
                       "bsm/redislock's); give --owner CLIENT:THREAD or --lock NAME"));
        finish(ExitUsage);
        return;
    }
    if (request.owner.isEmpty() && request.lock.isEmpty()) {
        m_out.error(recognised ? tr("this message (%1) names no lock: give --lock NAME").arg(request.recognised)
                               : tr("explain needs the message, --owner CLIENT:THREAD or --lock NAME"));
        finish(ExitUsage);
        return;
    }
    if (!m_parser.isSet(QStringLiteral("db")) && !QFile::exists(recordingPath())) {
        explainLive(request.lock, tr("no recording at %1").arg(recordingPath()));
        return;
    }
    RecordingStore store;
    if (!openRecording(store))
        return;
    QString error;
    const HoldStory story = Explainer::explain(store, request, &error);
    if (!error.isEmpty()) {
        readFailed(error);
        return;
    }
    if (!story.found) {
        if (!request.lock.isEmpty()) {
            explainLive(request.lock, story.notFound);
            return;
        }
        m_out.error(story.notFound);
        finish(ExitNotDone);
        return;
    }
    QJsonObject o = story.toJson();
    if (recognised)
        o.insert(QStringLiteral("message"), request.recognised);
    QStringList lines;
    if (recognised)
        lines << tr("%1:").arg(request.recognised);
    lines << story.lines();
    m_out.object(o, lines.join(QLatin1Char('\n')));
    finish(ExitDone);
}

void ExplainCommand::explainLive(const QByteArray &lock, const QString &why)
{
    if (lock.isEmpty()) {
        m_out.error(tr("%1, and the message names no lock to look at now: give --lock NAME").arg(why));
        finish(ExitNotDone);
        return;
    }
    // Said as what it is: the lock now, not its story.
    LockClient *client = makeClient();
    if (!client)
        return;
    Ops::inspect(
        client, lock,
        [this, lock, why](const LockNow &now) {
            if (now.error.isError()) {
                finish(m_out.fail(now.error));
                return;
            }
            QJsonArray holders;
            QStringList who;
            for (const LockHolder &h : now.holders) {
                holders.append(QJsonObject {
                    { QStringLiteral("owner"), jsonText(h.owner) }, { QStringLiteral("count"), h.count } });
                who << escapeBytes(h.owner, 120);
            }
            const QString line = tr("%1: only the lock as it is now can be told. %2 %3")
                                     .arg(why, escapeBytes(lock, 200),
                                         who.isEmpty() ? tr("is not held now")
                                                       : tr("is held now by %1").arg(who.join(QStringLiteral(", "))));
            m_out.object(
                QJsonObject { { QStringLiteral("source"), QStringLiteral("live") }, { QStringLiteral("found"), false },
                    { QStringLiteral("reason"), why }, { QStringLiteral("name"), jsonText(lock) },
                    { QStringLiteral("holders"), holders }, { QStringLiteral("ttl_ms"), now.ttlMs } },
                line);
            finish(ExitNotDone);
        },
        LockAction::Release);
}

} // namespace LockScope::Cli
