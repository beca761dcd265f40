#pragma once

#include "guide/guidelogmodel.h"
#include "guide/guidestage.h"
#include "redis/connectionoptions.h"

#include <QPointer>
#include <QTimer>
#include <QWidget>

#include <optional>

class QComboBox;
class QLabel;
class QListWidget;
class QPushButton;
class QTextBrowser;
class QTreeView;

namespace LockScope {
class LocalRedisServer;
}

namespace LockScope::Guide {

class ActorLanes;
class ChannelStrip;
class GuidePlayer;
class LockCard;

// The guided demo's window (Demo › Guided demo…, lockscope --guide): the scenarios, the lock card, the channel, the
// actors' lanes, the wire log and the narration of the scenario being played, on the console's private server (the
// guided locks then show in the console too) or on one of its own. Keyboard: Space plays, → (or Page Down, as a
// presenter's clicker sends) steps, ← or R restarts, ↑/↓ choose a scenario, F5 presenter mode. Space while playing
// pauses before the next step that may wait, and plays on.
class GuideWindow : public QWidget
{
    Q_OBJECT
public:
    // server: the console's own private redis-server, or none to start one for the demo.
    explicit GuideWindow(std::optional<ConnectionOptions> server, QWidget *parent = nullptr);
    ~GuideWindow() override;

    bool selectScenario(const QString &idOrSlug);
    QString currentScenario() const;
    void setTimeScaleMs(int ms);
    void play();
    void step();
    void restart();
    void setPresenterMode(bool on);
    bool isPlaying() const { return m_player != nullptr; }
    bool isWaitingForStep() const;

    const GuideStage &stage() const { return m_stage; }
    GuideLogModel *logModel() { return &m_log; }
    QString statusText() const;
    // The path of the program that runs a client in a process of its own (the crash and freeze scenarios).
    void setActorProgram(const QString &program, const QStringList &arguments);
    // How Play paces the steps for people (GuidePlayer::Options): the least time between two instant steps, and
    // the reading time per character of narration before the next step (Play only: stepping by hand is the
    // presenter's own pace).
    void setPacing(int minGapMs, int readingMsPerChar);
    int minGapMs() const { return m_minGapMs; }
    int readingMsPerChar() const { return m_readingMsPerChar; }
    bool isPaused() const { return m_paused; }
    // The steps narrated so far in the scenario being played, in order.
    const QList<GuideRecord> &narrated() const { return m_narrated; }

signals:
    void finished(int unexpected, const QString &error);

protected:
    void keyPressEvent(QKeyEvent *event) override;
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    enum class Mode { Play, Step };
    void build();
    void start(Mode mode);
    void begin(Mode mode);
    void onRecord(const GuideRecord &record);
    void onFinished(int unexpected, const QString &error);
    void frame();
    void showIntro();
    void renderNarration();
    void setStatus(const QString &text);
    bool handleKey(int key);

    std::optional<ConnectionOptions> m_connection;
    LocalRedisServer *m_server = nullptr;
    QString m_serverError;
    std::optional<Mode> m_pending; // asked for before the server was ready
    QString m_actorProgram;
    QStringList m_actorArguments;

    GuideStage m_stage;
    GuideLogModel m_log;
    GuidePlayer *m_player = nullptr;
    bool m_restart = false;
    Mode m_mode = Mode::Play;
    int m_timeScaleMs = 6000;
    // About 240 words a minute, read while the presenter talks; a second at least to see an instant step happen.
    int m_minGapMs = 1000;
    int m_readingMsPerChar = 50;
    bool m_paused = false; // Play waits before its next step that may wait, until Space
    QTimer m_frame;
    QList<GuideRecord> m_narrated;
    QFont m_baseFont;

    QListWidget *m_list;
    LockCard *m_card;
    ChannelStrip *m_channel;
    ActorLanes *m_lanes;
    QTreeView *m_logView;
    QTextBrowser *m_narration;
    QPushButton *m_playButton;
    QPushButton *m_stepButton;
    QPushButton *m_restartButton;
    QPushButton *m_presenterButton;
    QComboBox *m_speed;
    QComboBox *m_version;
    QLabel *m_status;
};

} // namespace LockScope::Guide
