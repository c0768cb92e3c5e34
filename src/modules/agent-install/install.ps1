# deskhook agent installer for Windows (Windows PowerShell 5.1 or later; no admin rights needed).
#
# The deskhook server serves this script at /_/agent/install.ps1 with its own URL, the agent's
# SHA-256, the fingerprint of its TLS certificate (https servers) and (from ?token=...) a one-time
# enrollment token filled in. Run it in the session of the user whose desktop the agent drives,
# with the command the dashboard shows (Desktops > Connect a desktop), e.g. over http:
#
#   irm "http://deskhook.lan:8080/_/agent/install.ps1?token=dhe_..." | iex
#
# An https server under --tls auto has its own CA, which Windows does not trust: there the
# dashboard's command first turns on TLS 1.2 and pins the CA's fingerprint (the part of the token
# after ~) to fetch this script (windowsInstallCommand in service.ts), and this script pins the same
# certificate to download the agent.
#
# It refuses to run as SYSTEM (an Intune/SCCM "System" push would enroll an agent in session 0,
# which has no desktop), installs the agent for this user in %LOCALAPPDATA%\deskhook, refuses a
# download whose SHA-256 differs, enrolls this PC with the token, and registers a Task Scheduler
# task that starts the agent at logon in this session and starts it again if it stops. Running it
# again upgrades the agent in place and keeps this PC's credential. /_/agent/uninstall.ps1 removes
# it all.
#
# Templated by the server; kept to what Windows PowerShell 5.1 understands, ASCII only.
& {
  Set-StrictMode -Version 2.0
  $ErrorActionPreference = 'Stop'
  $ProgressPreference = 'SilentlyContinue'

  $server = __DESKHOOK_SERVER__
  $token = __DESKHOOK_TOKEN__
  $expectedSha256 = __DESKHOOK_SHA256__
  $exeSize = __DESKHOOK_EXE_SIZE__
  $desktopName = __DESKHOOK_NAME__
  $startUrl = __DESKHOOK_START_URL__
  # SHA-256 of the certificate the server's chain must hold ('' over http, or when Windows trusts
  # the server's own chain), and the check that pins it (service.ts, pinnedCertificateCheck).
  $pin = __DESKHOOK_PIN__
  $pinCheck = __DESKHOOK_PIN_CHECK__
  $uninstallCommand = __DESKHOOK_UNINSTALL_COMMAND__

  # As SYSTEM (Intune or SCCM "System" install behavior, a startup script, a service) the agent
  # would run in session 0, which has no desktop, and spend the token there: refused first.
  $identity = [Security.Principal.WindowsIdentity]::GetCurrent()
  if ($identity.IsSystem -or ($identity.User.Value -eq 'S-1-5-18')) {
    throw ('This command runs as SYSTEM (an Intune or SCCM "System" install, a startup script or a ' +
      'service). The deskhook agent drives the desktop of the user who installs it, and SYSTEM has ' +
      'none. Nothing was installed and the enrollment token was not used: run the command in the ' +
      'session of the user whose desktop it drives (Intune: install behavior "User").')
  }

  # Windows PowerShell 5.1 may not offer TLS 1.2 by default: on before the first download.
  [Net.ServicePointManager]::SecurityProtocol = [Net.ServicePointManager]::SecurityProtocol -bor 3072

  $dir = Join-Path $env:LOCALAPPDATA 'deskhook'
  $exe = Join-Path $dir 'deskhook.exe'
  $download = Join-Path $dir 'deskhook.exe.download'
  $credentialFile = Join-Path (Join-Path $dir 'agent') 'credential.json'
  $tokenFile = Join-Path $dir 'enroll-token.txt'
  $enrollLog = Join-Path $dir 'enroll.log'
  $user = $env:USERDOMAIN + '\' + $env:USERNAME
  $taskName = 'deskhook agent (' + ($env:USERNAME -replace '[\\/:*"<>|]', '_') + ')'
  $runKey = 'HKCU:\Software\Microsoft\Windows\CurrentVersion\Run'
  $runValue = 'deskhook-agent'
  $msiKey = 'HKCU:\Software\deskhook\agent'

  function Say([string] $text) { Write-Host $text }

  function Get-Sha256([string] $path) {
    return (Get-FileHash -LiteralPath $path -Algorithm SHA256).Hash.ToLowerInvariant()
  }

  # The server this PC's saved credential belongs to, or '' (none, or unreadable).
  function Get-EnrolledServer {
    if (-not (Test-Path -LiteralPath $credentialFile)) { return '' }
    try {
      $saved = Get-Content -LiteralPath $credentialFile -Raw | ConvertFrom-Json
      return ([string] $saved.server).TrimEnd('/')
    } catch {
      return ''
    }
  }

  # Ends this user's agent and its helpers: the processes started from programs in $dir (the
  # UI Automation helper lives in agent\helpers); other users' processes hide their path.
  function Stop-Agent {
    if (Get-ScheduledTask -TaskName $taskName -ErrorAction SilentlyContinue) {
      Stop-ScheduledTask -TaskName $taskName -ErrorAction SilentlyContinue
    }
    $prefix = ($dir + '\').ToLowerInvariant()
    $running = @(Get-Process -ErrorAction SilentlyContinue | Where-Object {
        $path = $null
        try { $path = $_.Path } catch { }
        ($null -ne $path) -and $path.ToLowerInvariant().StartsWith($prefix)
      })
    foreach ($p in $running) { Stop-Process -Id $p.Id -Force -ErrorAction SilentlyContinue }
    foreach ($p in $running) { Wait-Process -Id $p.Id -Timeout 15 -ErrorAction SilentlyContinue }
    return $running.Count
  }

  # The agent's command-line arguments, each value in double quotes (none may hold a quote).
  function Get-AgentArguments([bool] $withToken) {
    $line = 'agent --server "' + $server + '"'
    if ($withToken) { $line += ' --token-file "' + $tokenFile + '"' }
    if ($desktopName -ne '') { $line += ' --name "' + $desktopName + '"' }
    if ($startUrl -ne '') { $line += ' --start-url "' + $startUrl + '"' }
    return $line
  }

  if (Get-ItemProperty -LiteralPath $msiKey -Name 'ProductCode' -ErrorAction SilentlyContinue) {
    throw ('The deskhook agent was installed here with its MSI (deskhook-agent.msi). Upgrade it with ' +
      'the new MSI, or remove it first: ' + $uninstallCommand)
  }

  $enrolledWith = Get-EnrolledServer
  $enrolled = ($enrolledWith -ne '') -and ($enrolledWith -eq $server.TrimEnd('/'))
  if ((-not $enrolled) -and ($token -eq '')) {
    throw ('This PC is not enrolled with ' + $server + ' yet, and this command has no enrollment token. ' +
      'In the deskhook dashboard, Desktops > Connect a desktop makes a command with one.')
  }

  Say ('Installing the deskhook agent for ' + $user + ' (server ' + $server + ')')
  New-Item -ItemType Directory -Force -Path $dir | Out-Null

  # 1. The program: downloaded beside the old one and checked before anything is stopped.
  $current = ''
  if (Test-Path -LiteralPath $exe) { $current = Get-Sha256 $exe }
  $replaced = $false
  if ($current -ne $expectedSha256) {
    Say ('  downloading deskhook.exe ({0:N1} MB)' -f ($exeSize / 1048576))
    $trusted = [Net.ServicePointManager]::ServerCertificateValidationCallback
    try {
      if ($pin -ne '') { [Net.ServicePointManager]::ServerCertificateValidationCallback = $pinCheck }
      Invoke-WebRequest -Uri ($server + '/_/agent/deskhook.exe') -OutFile $download -UseBasicParsing
    } catch {
      Remove-Item -LiteralPath $download -Force -ErrorAction SilentlyContinue
      $hint = ''
      if ($pin -ne '') {
        $hint = (' The server must present the certificate with SHA-256 ' + $pin + ' (its CA): if it was ' +
          'replaced, copy a new command from the dashboard.')
      }
      throw ('Could not download ' + $server + '/_/agent/deskhook.exe: ' + $_.Exception.Message + $hint)
    } finally {
      # The session this runs in keeps its own certificate checks.
      [Net.ServicePointManager]::ServerCertificateValidationCallback = $trusted
    }
    $got = Get-Sha256 $download
    if ($got -ne $expectedSha256) {
      Remove-Item -LiteralPath $download -Force -ErrorAction SilentlyContinue
      throw ('The downloaded deskhook.exe has SHA-256 ' + $got + ', but the server announced ' +
        $expectedSha256 + '. Nothing was installed or changed. If the agent on the server was just ' +
        'replaced, run the command again; otherwise something on the way altered the download.')
    }
    Say ('  SHA-256 checked: ' + $got)
    $replaced = $true
  } else {
    Say ('  deskhook.exe is up to date (SHA-256 ' + $current + ')')
  }

  # 2. Upgrade in place: the running agent lets go of the program; its credential stays.
  $stopped = Stop-Agent
  if ($stopped -gt 0) { Say ('  stopped the running agent') }
  if ($replaced) {
    $moved = $false
    for ($i = 0; ($i -lt 20) -and (-not $moved); $i++) {
      try {
        Move-Item -LiteralPath $download -Destination $exe -Force
        $moved = $true
      } catch {
        Start-Sleep -Milliseconds 500
      }
    }
    if (-not $moved) {
      Remove-Item -LiteralPath $download -Force -ErrorAction SilentlyContinue
      throw ('Could not replace ' + $exe + ': it is still in use. Close it and run the command again.')
    }
    Say ('  installed ' + $exe)
  }

  # 3. Enrollment: the agent trades the one-time token for this PC's own credential.
  if ($enrolled) {
    Say ('  already enrolled with ' + $server + '; kept the credential')
    if ($token -ne '') { Say '  (the token in this command was not used; it expires unused)' }
  } else {
    if ($enrolledWith -ne '') {
      Say ('  this PC was enrolled with ' + $enrolledWith + '; enrolling it with ' + $server + ' instead')
    }
    Say '  enrolling with the token...'
    Set-Content -LiteralPath $tokenFile -Value $token -Encoding Ascii -NoNewline
    $enrolling = Start-Process -FilePath $exe -ArgumentList (Get-AgentArguments $true) -WorkingDirectory $dir `
      -NoNewWindow -PassThru -RedirectStandardError $enrollLog -RedirectStandardOutput ($enrollLog + '.out')
    $deadline = (Get-Date).AddSeconds(90)
    $ok = $false
    while ((Get-Date) -lt $deadline) {
      if ((Get-EnrolledServer) -eq $server.TrimEnd('/')) { $ok = $true; break }
      if ($enrolling.HasExited) { break }
      Start-Sleep -Milliseconds 500
    }
    if (-not $enrolling.HasExited) {
      Stop-Process -Id $enrolling.Id -Force -ErrorAction SilentlyContinue
      Wait-Process -Id $enrolling.Id -Timeout 15 -ErrorAction SilentlyContinue
    }
    Remove-Item -LiteralPath $tokenFile -Force -ErrorAction SilentlyContinue
    $why = ''
    if (Test-Path -LiteralPath $enrollLog) { $why = (Get-Content -LiteralPath $enrollLog -Tail 5) -join "`r`n" }
    Remove-Item -LiteralPath $enrollLog, ($enrollLog + '.out') -Force -ErrorAction SilentlyContinue
    if (-not $ok) {
      throw ('The agent did not enroll with ' + $server + ". What it said (its log is in " + $dir +
        "\logs):`r`n" + $why + "`r`n" +
        'A token works once, for an hour: make a new command in the dashboard (Desktops > Connect a desktop). ' +
        'If the PC cannot reach the server, check the address and the firewall.')
    }
    Say ('  enrolled; the credential is in ' + $credentialFile)
  }

  # 4. Start at logon, in this user's session, and again whenever it stops.
  $arguments = Get-AgentArguments $false
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
    # Some policies forbid users their own tasks: the Run key still starts it at logon.
    Say ('  Task Scheduler refused the task (' + $_.Exception.Message + '); using the Run key instead')
  }
  if ($registered) {
    Remove-ItemProperty -Path $runKey -Name $runValue -ErrorAction SilentlyContinue
    Start-ScheduledTask -TaskName $taskName
    $how = 'Task Scheduler task "' + $taskName + '" (at logon, restarted if it stops)'
  } else {
    Set-ItemProperty -Path $runKey -Name $runValue -Value ('"' + $exe + '" ' + $arguments)
    Start-Process -FilePath $exe -ArgumentList $arguments -WorkingDirectory $dir -WindowStyle Hidden
    $how = 'the Run value "' + $runValue + '" in HKCU (at logon; not restarted if it stops)'
  }

  Say ''
  Say 'deskhook agent installed and running.'
  Say ('  program:  ' + $exe)
  Say ('  server:   ' + $server)
  Say ('  starts:   ' + $how)
  Say ('  remove:   ' + $uninstallCommand)
}
