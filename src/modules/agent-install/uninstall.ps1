# deskhook agent uninstaller for Windows (Windows PowerShell 5.1 or later; no admin rights needed).
#
# Served by the deskhook server at /_/agent/uninstall.ps1. Run it in the session of the user the
# agent was installed for:
#
#   irm "http://deskhook.lan:8080/_/agent/uninstall.ps1" | iex
#
# It stops the agent and removes its Task Scheduler task (or Run value), the program folder
# %LOCALAPPDATA%\deskhook and with it this PC's credential, run journal and logs, and its
# HKCU\Software\deskhook key. An agent installed with the MSI is handed to msiexec first, which
# removes the same things. As SYSTEM it refuses: SYSTEM has no agent of its own. The desktop stays listed on the server until
# an admin revokes it there.
#
# Templated by the server; kept to what Windows PowerShell 5.1 understands, ASCII only.
& {
  Set-StrictMode -Version 2.0
  $ErrorActionPreference = 'Stop'

  $server = __DESKHOOK_SERVER__

  $dir = Join-Path $env:LOCALAPPDATA 'deskhook'
  $credentialFile = Join-Path (Join-Path $dir 'agent') 'credential.json'
  $taskName = 'deskhook agent (' + ($env:USERNAME -replace '[\\/:*"<>|]', '_') + ')'
  $runKey = 'HKCU:\Software\Microsoft\Windows\CurrentVersion\Run'
  $runValue = 'deskhook-agent'
  $msiKey = 'HKCU:\Software\deskhook\agent'

  function Say([string] $text) { Write-Host $text }

  $identity = [Security.Principal.WindowsIdentity]::GetCurrent()
  if ($identity.IsSystem -or ($identity.User.Value -eq 'S-1-5-18')) {
    throw ('This command runs as SYSTEM. The deskhook agent is installed per user: run the command ' +
      'in the session of the user it was installed for (Intune: install behavior "User"). Nothing was removed.')
  }

  # The name this desktop has on the server, for the last hint ('' when unknown).
  $desktopName = ''
  if (Test-Path -LiteralPath $credentialFile) {
    try {
      $desktopName = [string] (Get-Content -LiteralPath $credentialFile -Raw | ConvertFrom-Json).name
    } catch { }
  }

  Say ('Removing the deskhook agent of ' + $env:USERDOMAIN + '\' + $env:USERNAME)
  $removed = $false

  $msiProduct = Get-ItemProperty -LiteralPath $msiKey -Name 'ProductCode' -ErrorAction SilentlyContinue
  if ($msiProduct) {
    $productCode = [string] $msiProduct.ProductCode
    if ($productCode -match '^\{[0-9A-Fa-f-]{36}\}$') {
      Say ('  uninstalling the MSI ' + $productCode)
      $msi = Start-Process -FilePath 'msiexec.exe' -ArgumentList ('/x ' + $productCode + ' /qn') -Wait -PassThru
      if (($msi.ExitCode -ne 0) -and ($msi.ExitCode -ne 1605)) {
        throw ('msiexec could not remove the deskhook agent (exit code ' + $msi.ExitCode + '). ' +
          'Remove "deskhook agent" in Settings > Apps, then run this command again.')
      }
      $removed = $true
    }
  }

  if (Get-ScheduledTask -TaskName $taskName -ErrorAction SilentlyContinue) {
    Stop-ScheduledTask -TaskName $taskName -ErrorAction SilentlyContinue
    Unregister-ScheduledTask -TaskName $taskName -Confirm:$false
    Say ('  removed the Task Scheduler task "' + $taskName + '"')
    $removed = $true
  }
  if (Get-ItemProperty -Path $runKey -Name $runValue -ErrorAction SilentlyContinue) {
    Remove-ItemProperty -Path $runKey -Name $runValue
    Say ('  removed the Run value "' + $runValue + '"')
    $removed = $true
  }

  # This user's agent and its helpers: the processes started from programs in $dir (the UI
  # Automation helper lives in agent\helpers); other users' processes hide their path.
  $prefix = ($dir + '\').ToLowerInvariant()
  $running = @(Get-Process -ErrorAction SilentlyContinue | Where-Object {
      $path = $null
      try { $path = $_.Path } catch { }
      ($null -ne $path) -and $path.ToLowerInvariant().StartsWith($prefix)
    })
  foreach ($p in $running) { Stop-Process -Id $p.Id -Force -ErrorAction SilentlyContinue }
  foreach ($p in $running) { Wait-Process -Id $p.Id -Timeout 15 -ErrorAction SilentlyContinue }
  if ($running.Count -gt 0) { Say '  stopped the agent' }

  if (Test-Path -LiteralPath $dir) {
    $gone = $false
    for ($i = 0; ($i -lt 20) -and (-not $gone); $i++) {
      try {
        Remove-Item -LiteralPath $dir -Recurse -Force
        $gone = $true
      } catch {
        Start-Sleep -Milliseconds 500
      }
    }
    if (-not $gone) { throw ('Could not remove ' + $dir + ': a file in it is still in use. Run the command again.') }
    Say ('  removed ' + $dir + ' (the program and this PC''s credential)')
    $removed = $true
  }
  if (Test-Path -LiteralPath $msiKey) { Remove-Item -LiteralPath $msiKey -Recurse -Force }
  # HKCU\Software\deskhook, once nothing else of deskhook's is in it.
  $productKey = Split-Path -Parent $msiKey
  if ((Test-Path -LiteralPath $productKey) -and (@(Get-ChildItem -LiteralPath $productKey).Count -eq 0) -and
      (@((Get-Item -LiteralPath $productKey).Property).Count -eq 0)) {
    Remove-Item -LiteralPath $productKey -Force
  }

  Say ''
  if (-not $removed) {
    Say 'The deskhook agent was not installed for this user; nothing to remove.'
  } else {
    Say 'deskhook agent removed.'
  }
  if ($desktopName -ne '') {
    Say ('On the server (' + $server + '), desktop "' + $desktopName + '" stays listed until an admin revokes it:')
    Say ('  deskhook desktops revoke "' + $desktopName + '"   (or Revoke on the Desktops page)')
  }
}
