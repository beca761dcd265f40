#include "guidecommand.h"

#include "guide/guidejson.h"
#include "guide/guideplayer.h"
#include "guide/guidetext.h"
#include "local/localredisserver.h"
#include "terminationwatcher.h"
#include "texttable.h"

#include <QSocketNotifier>

#include <unistd.h>

namespace LockScope::Cli {

using namespace Guide;

void GuideCommand::start()
{
    if (m_parser.isSet(QStringLiteral("list"))) {
        listScenarios();
        return;
    }
    const QString id = positional(1);
    if (id.isEmpty()) {
        m_out.error(tr("guide takes a scenario id (G02), its slug (acquire) or all; guide --list lists them"));
        finish(ExitUsage);
        return;
    }
    if (id == QLatin1String("all")) {
        m_queue = scenarios();
    } else if (const Scenario *s = findScenario(id)) {
        m_queue = { *s };
    } else {
        m_out.error(tr("no scenario \"%1\"; guide --list lists them").arg(id));
        finish(ExitUsage);
        return;
    }
    const QString speed = m_parser.value(QStringLiteral("speed"));
    if (speed.isEmpty() || speed == QLatin1String("normal")) {
        m_timeScaleMs = 6000;
    } else if (speed == QLatin1String("fast")) {
        m_timeScaleMs = 3000;
    } else if (speed == QLatin1String("real")) {
        m_timeScaleMs = 30000;
    } else {
        bool ok = false;
        m_timeScaleMs = speed.toInt(&ok);
        if (!ok || m_timeScaleMs < 3000 || m_timeScaleMs > 60000) {
            m_out.error(tr("--speed takes fast, normal, real or a watchdog timeout T from 3000 to 60000 ms"));
            finish(ExitUsage);
            return;
        }
    }
    if (m_parser.isSet(QStringLiteral("script-version"))
        && !parseUnlockEffect(m_parser.value(QStringLiteral("script-version")), &m_effect)) {
        m_out.error(tr("--script-version takes 4, 3.22, 3.21 or 3.10.5"));
        finish(ExitUsage);
        return;
    }
    // The demo writes: never on a read-only connection, and on someone else's server only when asked to.
    if (m_connection.readOnly) {
        finish(m_out.fail(RedisError(RedisError::Kind::ReadOnly,
            tr("guide refused: read-only mode (the guided demo takes and releases locks)"))));
        return;
    }
    m_ownServer = !m_parser.isSet(QStringLiteral("url")) && !qEnvironmentVariableIsSet("LOCKSCOPE_URL");
    if (!m_ownServer && !m_parser.isSet(QStringLiteral("allow-writes"))) {
        m_out.error(tr("guide refused: on a server given with --url the guided demo writes guided:* keys; add "
                       "--allow-writes to let it, or leave out --url to play on a private redis-server"));
        finish(ExitRefused);
        return;
    }
    auto *watcher = new TerminationWatcher(false, this);
    connect(watcher, &TerminationWatcher::terminationRequested, this, [this] {
        m_interrupted = true;
        if (m_player)
            m_player->stop();
        m_queue.clear();
    });
    if (m_ownServer) {
        m_server = new LocalRedisServer(this);
        QString error;
        if (!m_server->start(&error)) {
            m_out.error(tr("cannot start a private redis-server: %1").arg(error));
            finish(ExitConnect);
            return;
        }
        const ConnectionOptions given = m_connection;
        m_connection = ConnectionOptions::fromUrl(m_server->url());
        m_connection.connectTimeoutMs = given.connectTimeoutMs;
    }
    playNext();
}

void GuideCommand::listScenarios()
{
    QList<QStringList> rows { { tr("ID"), tr("SLUG"), tr("TITLE"), tr("SEEDS"), tr("NEEDS") } };
    for (const Scenario &s : scenarios()) {
        if (m_out.json()) {
            m_out.jsonLine(scenarioJson(s));
            continue;
        }
        QStringList seeds;
        for (int seed : s.seeds)
            seeds << QStringLiteral("%1").arg(seed, 3, 10, QLatin1Char('0'));
        rows.append({ QString::fromLatin1(s.id), QString::fromLatin1(s.slug), translated(s.title),
            seeds.join(QLatin1Char(' ')), s.tags.join(QLatin1Char(' ')) });
    }
    if (!m_out.json())
        m_out.line(textTable(rows).chopped(1));
    finish(ExitDone);
}

void GuideCommand::playNext()
{
    if (m_queue.isEmpty()) {
        finish(m_unexpected > 0 ? ExitNotDone : ExitDone);
        return;
    }
    m_current = m_queue.takeFirst();
    GuidePlayer::Options options;
    options.timeScaleMs = m_timeScaleMs;
    options.ownServer = m_ownServer;
    options.unlockEffect = m_effect;
    options.stepMode = m_parser.isSet(QStringLiteral("step"));
    options.actorProgram = QCoreApplication::applicationFilePath();
    options.actorArguments = { QStringLiteral("guide-actor") };
    m_player = new GuidePlayer(m_connection, options, this);
    connect(m_player, &GuidePlayer::record, this, &GuideCommand::print);
    connect(m_player, &GuidePlayer::finished, this, &GuideCommand::onFinished);
    connect(m_player, &GuidePlayer::waitingForNext, this, &GuideCommand::waitForEnter);
    if (!m_out.json()) {
        m_out.line(tr("guide %1 \"%2\" on %3, T = %4 ms")
                       .arg(QString::fromLatin1(m_current.id), translated(m_current.title),
                           m_ownServer ? tr("a private redis-server at %1").arg(m_connection.toDisplayUrl())
                                       : m_connection.toDisplayUrl())
                       .arg(m_timeScaleMs));
        m_out.line(QStringLiteral("  ") + translated(m_current.summary));
    }
    m_player->play(m_current);
}

void GuideCommand::print(const GuideRecord &r)
{
    if (m_out.json()) {
        m_out.jsonLine(recordJson(m_current.id, r));
        return;
    }
    const QString time = QStringLiteral("+%1").arg(r.tMs / 1000.0, 0, 'f', 3);
    const QString who = QString::fromUtf8(r.actor);
    if (r.type == GuideRecord::Type::Event) {
        QString text = eventText(r.event, r.ms);
        if (r.event == ActorEvent::Expired && !r.keys.isEmpty())
            text = QString::fromUtf8(r.keys.first()) + QStringLiteral(" ") + text;
        if (!r.detail.isEmpty())
            text += QStringLiteral(" (%1)").arg(r.detail);
        if (!r.java.isEmpty())
            text += QStringLiteral("  ⇒ %1").arg(r.java);
        m_out.line(QStringLiteral("%1  %2  %3").arg(time, who, text));
        return;
    }
    if (r.type == GuideRecord::Type::Step && !r.narration.isEmpty())
        m_out.line(QStringLiteral("» ") + r.narration);
    QString wire = callText(r);
    if (wire.isEmpty() && r.type == GuideRecord::Type::Step && r.op != "await" && r.event != ActorEvent::None) {
        // A teacher's signal: the step is the event (kill -9, SIGSTOP, SIGCONT); the pid is its detail.
        wire = eventText(r.event, r.ms);
    }
    if (!wire.isEmpty()) {
        if (!r.detail.isEmpty())
            wire = r.detail + QStringLiteral("  ") + wire;
        if (r.hasReply)
            wire += QStringLiteral("  → ") + replyText(r.reply);
        m_out.line(QStringLiteral("%1  %2  %3").arg(time, who, wire));
    }
    if (r.type != GuideRecord::Type::Step)
        return;
    QStringList after;
    if (!r.calls.isEmpty())
        after << (r.callsInferred ? tr("ran (inferred): %1") : tr("ran: %1")).arg(QString::fromUtf8(r.calls.join(' ')));
    for (const KeyState &s : r.state)
        after << QString::fromUtf8(s.name) + QLatin1Char(' ') + stateText(s);
    if (r.receivers >= 0)
        after << tr("%n received the message", nullptr, r.receivers);
    if (r.listeners >= 0)
        after << tr("%n listening", nullptr, r.listeners);
    m_out.line(QStringLiteral("        ") + after.join(QStringLiteral("   ")));
    if (r.unexpected)
        m_out.line(QStringLiteral("        ! ") + tr("unexpected: %1").arg(r.seen.join(QStringLiteral("; "))));
}

void GuideCommand::waitForEnter(int step)
{
    if (m_out.json() || !isatty(STDIN_FILENO)) {
        // Nobody to press Enter: go on (a script, a pipe).
        QMetaObject::invokeMethod(m_player, &GuidePlayer::next, Qt::QueuedConnection);
        return;
    }
    std::fputs(qPrintable(tr("[Enter: step %1] ").arg(step)), stderr);
    std::fflush(stderr);
    // The event loop keeps running while we wait: the clients' watchdogs and timers go on, as in real life.
    if (!m_stdin) {
        m_stdin = new QSocketNotifier(STDIN_FILENO, QSocketNotifier::Read, this);
        connect(m_stdin, &QSocketNotifier::activated, this, [this] {
            char buffer[256];
            const ssize_t n = ::read(STDIN_FILENO, buffer, sizeof buffer);
            if (n <= 0) {
                m_stdin->setEnabled(false);
                if (m_player)
                    m_player->stop();
                return;
            }
            if (m_player && m_player->isWaiting())
                m_player->next();
        });
    }
}

void GuideCommand::onFinished(int unexpected, const QString &error, bool refused)
{
    m_player->deleteLater();
    m_player = nullptr;
    if (!error.isEmpty()) {
        m_out.error(tr("guide %1: %2").arg(QString::fromLatin1(m_current.id), error));
        finish(refused ? ExitRefused : ExitConnect);
        return;
    }
    m_unexpected += unexpected;
    if (m_interrupted) {
        // Cut short: its last steps never ran, so nobody can say it went as described.
        m_out.error(tr("guide %1: interrupted; the guided keys are deleted").arg(QString::fromLatin1(m_current.id)));
        finish(ExitNotDone);
        return;
    }
    if (!m_out.json())
        m_out.line(unexpected == 0 ? tr("guide %1: every step went as described").arg(QString::fromLatin1(m_current.id))
                                   : tr("guide %1: %n step(s) went otherwise than described", nullptr, unexpected)
                                         .arg(QString::fromLatin1(m_current.id)));
    playNext();
}

} // namespace LockScope::Cli
