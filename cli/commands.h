#pragma once

#include "clioutput.h"
#include "kinds/keyglob.h"
#include "monitor/lockmonitor.h"
#include "ops/inspect.h"
#include "profiles/connectionprofile.h"
#include "redis/connectionoptions.h"

#include <QCommandLineParser>
#include <QJsonObject>
#include <QObject>
#include <QPointer>

namespace LockScope {
struct LockNow;
class AuditNotifier;
class AuditRecord;
class HolderWatch;
class LockScanner;
class RedisRouter;
} // namespace LockScope

namespace LockScope {
class LockClient;
}

namespace LockScope::Cli {

// A command runs on the event loop and reports its exit code once through finished().
class Command : public QObject
{
    Q_OBJECT
public:
    Command(const QCommandLineParser &parser, ConnectionOptions connection, QObject *parent = nullptr);
    virtual void start() = 0;
    // What main() runs: start(), once a name given as hex digits is known to be one.
    void run();
    // --profile: the saved connection's key pattern and string lock patterns are what --pattern and --string-locks
    // default to.
    void useProfile(const ConnectionProfile &profile);

signals:
    void finished(int exitCode);

protected:
    // release and force-release: in text mode, say on stderr before acting when the lock their one reading found is
    // of low confidence (it may be application data that looks like a lock); confidencecheck.cpp.
    void warnOnLowConfidence(const LockNow &reading) const;
    void finish(int exitCode);
    void scanWhenReady(RedisRouter *router, LockScanner *scanner);
    // Creates the client; a failed first connection ends the command with exit code 3 right away.
    LockClient *makeClient(int watchdogTimeoutMs = 0);
    QString positional(int index) const;
    // The lock name the command acts on (the first argument after the command), as bytes: typed as list and show
    // print it (\\xNN escapes, a doubled backslash), or as hex digits with --hex.
    QByteArray lockName() const;
    // --hex with a name that is not hex digits: the usage error, printed and returned as true.
    bool badHexName();
    // --string-locks GLOB (repeatable; replaces the defaults), --no-string-locks, and the names declared as a library's
    // (--layout-pattern LIBRARY=GLOB): where list, show and watch look, and whose waiters a release wakes.
    StringLockPatterns stringLockPatterns() const;
    // A monitor's options from --pattern, the string lock options and, with rescanOption, --interval (ms between
    // re-scans); false, with the usage error printed, when --interval is not a number of ms.
    bool monitorOptions(LockMonitor::Options *options, bool rescanOption = true) const;
    // --pattern, else the profile's, else every name.
    QByteArray keyPattern() const;
    // Whether the audit log can take this action's record; otherwise says so, ends the command with exit code 4
    // (refused) and returns false. Asked before anything is written or prompted for: an action that could not be
    // audited is not run.
    bool auditable(const QString &action);
    // Appends an operation's record to the audit log with the person's --reason, and posts it where --notify, --syslog
    // and the profile's notify say; finish() waits for those posts (a while at most). The log was writable before the
    // action (auditable()); if it stopped being so meanwhile, the action has happened all the same, and this says so
    // as a warning.
    void audit(AuditRecord record);
    // Posts a line (an audit record, a reaper's report) where --notify, --syslog and the profile's notify say.
    void notify(const QJsonObject &line);
    // Asks on the terminal; anything but yes cancels the command (exit 1, "nothing changed") and returns false.
    // target: on a production profile the name that must be typed instead of "y" (empty: "y" stands).
    bool confirm(const QString &question, const QByteArray &target = {});
    // A production profile (its "production" field): force-release, release-client and expire need the name typed.
    bool production() const;
    // Before anything is read: on production, --yes stands only with --confirm-name equal to target; otherwise says
    // so and ends the command (exit 2).
    bool productionAllows(const QByteArray &target);
    // Who holds what, and whether they are alive: a watch over router's servers that knows what the last trace of this
    // server found (saved by lockscope-cli trace).
    HolderWatch *holderWatch(RedisRouter *router);
    // One line on who holds a lock now (Ops::inspect): its holders and counts, or a string lock's token, and TTL.
    QString describeHolders(const LockNow &now) const;

    const QCommandLineParser &m_parser;
    std::optional<ConnectionProfile> m_profile;
    ConnectionOptions m_connection;
    Output m_out;
    bool m_finished = false;
    // A QPointer: a command may delete a client it no longer needs (demo's connection check) before finish()
    // looks at it.
    QPointer<LockClient> m_client;
    AuditNotifier *m_notifier = nullptr;
};

class LockCommand;
class ReleaseCommand;
class ForceReleaseCommand;
class DemoCommand;

// lock's timing options. false, with the usage error printed, when one is not a number of ms or --lease and
// --watchdog are both given.
struct LockTimes
{
    qint64 lease = -1; // -1: the watchdog
    qint64 wait = 0; // -1: forever
    qint64 hold = -1; // -1: until a signal or end of input
    qint64 watchdogTimeout = 0; // 0: the default
};
bool readLockTimes(const QCommandLineParser &parser, const Output &out, LockTimes *times);
// --layout-pattern names a known library, --library a known one; false, with the usage error printed, otherwise.
bool checkLibraryOptions(const QCommandLineParser &parser, const Output &out);

// Builds the command named on the command line, or nullptr with a usage error printed.
Command *createCommand(
    const QString &name, const QCommandLineParser &parser, ConnectionOptions connection, QObject *parent);
// The options of one command or a few (each one's help names them).
QList<QCommandLineOption> commandOptions();
void addCommandOptions(QCommandLineParser &parser);

} // namespace LockScope::Cli
