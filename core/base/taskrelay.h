#pragma once

#include <QObject>

#include <deque>
#include <functional>
#include <mutex>

class QSocketNotifier;

namespace LockScope {

// Runs functions posted from any thread in the thread that created it, in order. Neither the functions nor the
// wake-up travel through Qt's cross-thread event posting: the functions go through a std::mutex and the wake-up is
// a write to an eventfd. ThreadSanitizer cannot see into an uninstrumented QtCore, but it sees both of these, so
// every hand-off between a caller and the lock client's thread is visible to it.
class TaskRelay : public QObject
{
    Q_OBJECT
public:
    explicit TaskRelay(QObject *parent = nullptr);
    ~TaskRelay() override;

    bool isValid() const { return m_fd >= 0; }
    // Any thread.
    void post(std::function<void()> task);

private:
    void drain();

    int m_fd = -1;
    QSocketNotifier *m_notifier = nullptr;
    std::mutex m_mutex;
    std::deque<std::function<void()>> m_tasks;
};

} // namespace LockScope
