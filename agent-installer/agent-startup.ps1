# Starts the MSI-installed deskhook agent at logon, and again whenever it exits.
#
# Installed by the MSI (deskhook-agent.wxs) as %LOCALAPPDATA%\deskhook\agent-startup.ps1 and run
# once by it, as the user, right after each install, upgrade or repair (custom action StartAgent,
# through powershell.exe -EncodedCommand, which no execution policy blocks). Like the one-liner's
# install.ps1 (src/modules/agent-install/install.ps1, step 4) it registers a Task Scheduler task
# that starts the agent at this user's logon in this session, restarts it when it fails and starts
# it again every 5 minutes if it has exited; where a policy forbids users their own tasks, the
# HKCU Run value instead. Then it starts the agent. The MSI's uninstall removes both.
#
# The agent's command line names the token file the MSI wrote (enroll-token.txt): the agent reads
# it until it has its own credential, and starts without it afterwards (src/cli/agent.ts).
#
# Kept to what Windows PowerShell 5.1 understands, ASCII only.
& {
  Set-StrictMode -Version 2.0
  $ErrorActionPreference = 'Stop'

  $dir = Join-Path $env:LOCALAPPDATA 'deskhook'
  $exe = Join-Path $dir 'deskhook.exe'
  $tokenFile = Join-Path $dir 'enroll-token.txt'
  $user = $env:USERDOMAIN + '\' + $env:USERNAME
  $taskName = 'deskhook agent (' + ($env:USERNAME -replace '[\\/:*"<>|]', '_') + ')'
  $runKey = 'HKCU:\Software\Microsoft\Windows\CurrentVersion\Run'
  $runValue = 'deskhook-agent'
  # The MSI keeps SERVER here (its AgentProgram component).
  $server = [string] (Get-ItemProperty -LiteralPath 'HKCU:\Software\deskhook\agent' -Name 'Server').Server
  if ($server -notmatch '^https?://[^"\s]+$') {
    throw ('HKCU\Software\deskhook\agent has no usable Server (' + $server + '): install the MSI again with SERVER=...')
  }
  $arguments = 'agent --server "' + $server + '" --token-file "' + $tokenFile + '"'

  $registered = $false
  try {
    $action = New-ScheduledTaskAction -Execute $exe -Argument $arguments -WorkingDirectory $dir
    $atLogon = New-ScheduledTaskTrigger -AtLogOn -User $user
    # Restart-on-failure covers a start that fails; this covers an agent that exits: every
    # 5 minutes the task is started again, which does nothing while it runs (IgnoreNew).
    $watchdog = New-ScheduledTaskTrigger -Once -At (Get-Date) -RepetitionInterval (New-TimeSpan -Minutes 5)
    $principal = New-ScheduledTaskPrincipal -UserId $user -LogonType Interactive -RunLevel Limited
    $settings = New-ScheduledTaskSettingsSet -AllowStartIfOnBatteries -DontStopIfGoingOnBatteries `
      -StartWhenAvailable -MultipleInstances IgnoreNew -ExecutionTimeLimit (New-TimeSpan -Seconds 0) `
      -RestartCount 999 -RestartInterval (New-TimeSpan -Minutes 1)
    Register-ScheduledTask -TaskName $taskName -TaskPath '\' -Action $action -Trigger @($atLogon, $watchdog) `
      -Principal $principal -Settings $settings -Force `
      -Description ('deskhook agent for ' + $user + ': connects this desktop to ' + $server) | Out-Null
    $registered = $true
  } catch {
    # Some policies forbid users their own tasks: the Run value still starts it at logon.
    Write-Warning ('Task Scheduler refused the task (' + $_.Exception.Message + '); using the Run value instead')
  }
  if ($registered) {
    # One way to start only: two would run two agents with one credential.
    Remove-ItemProperty -Path $runKey -Name $runValue -ErrorAction SilentlyContinue
    Start-ScheduledTask -TaskName $taskName
  } else {
    Set-ItemProperty -Path $runKey -Name $runValue -Value ('"' + $exe + '" ' + $arguments)
    Start-Process -FilePath $exe -ArgumentList $arguments -WorkingDirectory $dir
  }
}
