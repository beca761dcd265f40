#pragma once

#include "commands.h"
#include "guide/guiderecord.h"
#include "guide/guidescripts.h"
#include "guide/scenario.h"

class QSocketNotifier;

namespace LockScope {
class LocalRedisServer;
namespace Guide {
class GuidePlayer;
}
} // namespace LockScope

namespace LockScope::Cli {

// guide --list | guide ID|SLUG|all [--speed fast|normal|real|MS] [--step] [--script-version V] [--json]
// [--url URL --allow-writes]: plays the guided demo's scenarios, printing each step's command, reply, what the
// script ran, the state after and the narration. Without --url on a private redis-server it starts and stops.
class GuideCommand : public Command
{
    Q_OBJECT
public:
    using Command::Command;
    void start() override;

private:
    void listScenarios();
    void playNext();
    void print(const Guide::GuideRecord &record);
    void onFinished(int unexpected, const QString &error, bool refused);
    void waitForEnter(int step);

    QList<Guide::Scenario> m_queue;
    Guide::Scenario m_current;
    Guide::GuidePlayer *m_player = nullptr;
    LocalRedisServer *m_server = nullptr;
    QSocketNotifier *m_stdin = nullptr;
    int m_timeScaleMs = 6000;
    Guide::UnlockEffect m_effect = Guide::UnlockEffect::V4;
    int m_unexpected = 0;
    bool m_ownServer = true;
    bool m_interrupted = false;
};

} // namespace LockScope::Cli
