// The low-confidence warning before release and force-release (issue 15 point 10): a lock that only its shape
// vouches for may be application data, and the person acting on it should know before it is changed. It comes from
// the action's own reading, not a read of its own.
#include "commands.h"

#include "ops/inspect.h"
#include "redis/bytesformat.h"

namespace LockScope::Cli {

void Command::run()
{
    if (badHexName())
        return;
    start();
}

void Command::warnOnLowConfidence(const LockNow &reading) const
{
    // JSON mode is for scripts, which read the confidence from show.
    if (m_out.json() || !reading.lock)
        return;
    if (const QString text = lowConfidenceText(*reading.lock); !text.isEmpty())
        m_out.error(tr("warning: %1: %2").arg(escapeBytes(reading.name, 200), text));
}

} // namespace LockScope::Cli
