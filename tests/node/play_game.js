#!/usr/bin/env node
// Plays one whole game against `stargtp serve` through a third-party GTP
// client library, @sabaki/gtp (its Controller spawns the server and parses
// every response into a Response object: {id, error, content}).
//
//   node play_game.js GAME SIZE -- SERVER COMMAND LINE...
//
// GAME is any game the server plays (the names `stargtp-games` lists: star,
// amazons, hex, y); the server refuses any other. The server command line (for example
// `stargtp serve --seed 1 --playouts 20 --workers 1`) comes after `--`, or,
// without it, from the environment variable STARGTP_SERVE_COMMAND as a JSON
// array of strings.
//
// The script sets up the game (`game GAME`, then `boardsize SIZE`), then asks `stargtp-position` and answers `genmove` for the
// side to move until the position is over or a genmove answers `resign`.
// Then `final_score`, `printsgf`, one bad command (which must come back as an
// error), `name` (the session must carry on) and `quit`. It prints one JSON
// line on stdout: what the library reported. Anything unexpected (an error
// response to a good command, a response id that is not the command's, a
// move the position does not show, a server that does not stop cleanly)
// ends it with a message on stderr and exit status 1.

'use strict'

const {Controller} = require('@sabaki/gtp')

const BAD_COMMAND = 'no_such_command'
const MAX_PLIES = 400
const TIMEOUT_MS = 240 * 1000

function usage(message) {
  process.stderr.write(
    `play_game.js: ${message}\n` +
      'usage: node play_game.js GAME SIZE -- SERVER COMMAND...\n'
  )
  process.exit(2)
}

function parseArguments(argv) {
  let split = argv.indexOf('--')
  let own = split < 0 ? argv : argv.slice(0, split)
  let command = split < 0 ? null : argv.slice(split + 1)
  if (own.length !== 2) usage('expected GAME and SIZE')
  let [game, size] = own
  if (!/^[a-z][a-z0-9_-]*$/.test(game)) usage(`bad game name ${game}`)
  if (!/^[0-9]+$/.test(size)) usage(`bad size ${size}`)
  if (command == null) {
    let text = process.env.STARGTP_SERVE_COMMAND
    if (!text) usage('no server command (after -- or in STARGTP_SERVE_COMMAND)')
    command = JSON.parse(text)
  }
  if (
    !Array.isArray(command) ||
    command.length === 0 ||
    !command.every(part => typeof part === 'string')
  ) {
    usage('the server command must be a non-empty list of strings')
  }
  return {game, size, command}
}

class Surprise extends Error {}

function expect(condition, message) {
  if (!condition) throw new Surprise(message)
}

async function main() {
  let {game, size, command} = parseArguments(process.argv.slice(2))
  let controller = new Controller(command[0], command.slice(1))
  controller.on('stderr', ({content}) => process.stderr.write(`server: ${content}\n`))

  let nextId = 1
  let exchanges = 0

  // Sends a command with a fresh id; returns the library's Response.
  async function send(name, ...args) {
    let id = nextId++
    let response = await controller.sendCommand({id, name, args})
    exchanges++
    expect(
      response.id === id,
      `${name}: the response carries id ${response.id}, not ${id}`
    )
    expect(typeof response.content === 'string', `${name}: no content`)
    return response
  }

  // A command that must succeed; returns its content.
  async function ok(name, ...args) {
    let response = await send(name, ...args)
    expect(
      response.error === false,
      `${[name, ...args].join(' ')}: error response: ${response.content}`
    )
    return response.content
  }

  async function position() {
    let content = await ok('stargtp-position')
    expect(!content.includes('\n'), 'stargtp-position: more than one line')
    return JSON.parse(content)
  }

  let exitCode = null
  controller.on('stopped', ({signal}) => {
    exitCode = signal
  })
  controller.start()

  try {
    await ok('game', game)
    await ok('boardsize', size)
    expect((await ok('game')) === game, 'game: not the game set up')
    expect((await ok('query_boardsize')) === size, 'query_boardsize: not SIZE')

    let moves = []
    let end = null
    let state = await position()
    expect(state.game === game && String(state.size) === size, 'wrong position')
    expect(state.moves.length === 0 && !state.over, 'the board is not fresh')

    while (end == null) {
      if (state.over) {
        end = 'over'
        break
      }
      expect(moves.length < MAX_PLIES, `no end after ${MAX_PLIES} moves`)
      let colour = state.to_move
      expect(['black', 'white'].includes(colour), `to_move ${colour}`)
      let move = await ok('genmove', colour)
      expect(move !== '' && !/\s/.test(move), `genmove ${colour}: ${JSON.stringify(move)}`)
      let after = await position()
      if (move === 'resign') {
        expect(
          after.moves.length === state.moves.length,
          'resign changed the position'
        )
        end = 'resign'
      } else {
        moves.push([colour, move])
        expect(
          after.moves.length === moves.length,
          `after ${move}: ${after.moves.length} moves in the position, ${moves.length} played`
        )
        let [shownColour, shownMove] = after.moves[after.moves.length - 1]
        expect(
          shownColour === colour && shownMove === move,
          `genmove ${colour} answered ${move}, the position shows ${shownColour} ${shownMove}`
        )
      }
      state = after
    }

    let finalScore = await ok('final_score')
    let record = await ok('printsgf')
    let bad = await send(BAD_COMMAND)
    expect(bad.error === true, `${BAD_COMMAND}: not an error: ${bad.content}`)
    expect(bad.content !== '', `${BAD_COMMAND}: an error without a message`)
    expect((await ok('name')) === 'stargtp', 'name: not stargtp after the error')

    await controller.stop(30 * 1000)
    expect(exitCode === 0, `the server exited with ${exitCode}`)

    process.stdout.write(
      JSON.stringify({
        game,
        size: Number(size),
        moves,
        end,
        final_score: finalScore,
        record,
        position: state,
        error: {command: BAD_COMMAND, message: bad.content},
        exchanges
      }) + '\n'
    )
  } finally {
    if (controller.process != null) await controller.kill()
  }
}

let timer = setTimeout(() => {
  process.stderr.write(`play_game.js: no result after ${TIMEOUT_MS / 1000} s\n`)
  process.exit(1)
}, TIMEOUT_MS)

main().then(
  () => {
    clearTimeout(timer)
  },
  err => {
    clearTimeout(timer)
    process.stderr.write(
      `play_game.js: ${err instanceof Surprise ? 'surprise: ' : ''}${err.stack || err}\n`
    )
    process.exit(1)
  }
)
