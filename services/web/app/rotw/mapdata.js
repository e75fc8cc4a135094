// @ts-check
// GENERATED from shared/games/rotw_england_wales/map.json by tests/web/test_rotw_page.py's
// terrain_rows() (test_map_data_matches_map_json keeps it equal): the terrain the view does not
// carry (p plain, m mountain, w water, x mountain+water, s sea), one string per row; barriers by hex pair;
// the major lines' names and VP (the view names only the claimed ones, by id).
export const LAYOUT = "pointy-odd-r";
export const TERRAIN = [
 "sssssssssssssssssssssssssssss",
 "sssssssssssssssssssssssssssss",
 "sssssssssssssppssssssssssssss",
 "sssssssssssssppssssssssssssss",
 "sssssssssssssmppsssssssssssss",
 "sssssssssssmmppssssssssssssss",
 "ssssssssssspppppsssssssssssss",
 "ssssssssspppmwwpsssssssssssss",
 "ssssssssspppmmpppssssssssssss",
 "sssssssspmxpmmpppssssssssssss",
 "sssssssssmmmpmwppmmssssssssss",
 "sssssssssmxpmmpppmpssssssssss",
 "sssssssssspppmmpppppsssssssss",
 "ssssssssssspmmppppppsssssssss",
 "sssssssssssppmpppppppssssssss",
 "sssssssssspppmpppwwppssssssss",
 "ssssssssssppppmpppwpwssssssss",
 "sssssssssspwpxmppppppssssssss",
 "ssssspwpppwwppmpppwpppsssssss",
 "ssssswmmppppppppppppppsssssss",
 "sssssspmpxwpppppppppppsssssss",
 "ssssssmmmmpppwwpwppppsppppsss",
 "sssssssmppwpwpwppppppppppppss",
 "sssssspxpwppwppppppppppppppss",
 "ssssssspxmmppppppppppwwppppps",
 "sssssspmxmppwppppppwpppppppss",
 "sssspppmmwwppppppppwpppppppss",
 "sspppppmmmpwpwppppppppppppsss",
 "sssppppmmppwwpppppppppppppsss",
 "ssppsppmmppwppwwwpppppppsssss",
 "sssssssspppwpppppwwwppwpsssss",
 "ssssssssssppwppppppwppwwppsss",
 "sssssssmmsppppppppppppwwpppss",
 "sssssppmpppppppppppppppppssss",
 "ssssspppwppppppppppppppppssss",
 "ssssppppppppppppsppsspsssssss",
 "sssspwmmwsssppsssssssssssssss",
 "sspppwppsssssssssssssssssssss",
 "ssppppppsssssssssssssssssssss",
 "pppssssssssssssssssssssssssss",
 "sssssssssssssssssssssssssssss"
];
/** @type {number[][][]} */
export const BARRIERS = [[[9, 18], [10, 18]], [[9, 19], [10, 18]], [[10, 17], [10, 18]], [[10, 17], [11, 18]], [[10, 29], [11, 30]], [[10, 30], [10, 31]], [[10, 30], [11, 30]], [[11, 29], [11, 30]], [[11, 29], [12, 29]], [[11, 29], [12, 30]], [[12, 28], [12, 29]], [[18, 15], [18, 16]], [[18, 15], [19, 16]], [[19, 15], [19, 16]], [[19, 15], [20, 16]], [[20, 15], [20, 16]], [[22, 31], [23, 30]], [[23, 30], [23, 31]]];
export const MAJORS = [{"id": "liverpool-manchester", "name": "Liverpool & Manchester", "vp": 2}, {"id": "london-birmingham", "name": "London & Birmingham", "vp": 3}, {"id": "grand-junction", "name": "Grand Junction", "vp": 3}, {"id": "great-western", "name": "Great Western", "vp": 3}, {"id": "london-brighton", "name": "London & Brighton", "vp": 2}, {"id": "london-dover", "name": "South Eastern", "vp": 2}, {"id": "london-southampton", "name": "London & Southampton", "vp": 2}, {"id": "eastern-counties", "name": "Eastern Counties", "vp": 3}, {"id": "great-northern", "name": "Great Northern", "vp": 5}, {"id": "york-newcastle-berwick", "name": "York, Newcastle & Berwick", "vp": 4}, {"id": "newcastle-carlisle", "name": "Newcastle & Carlisle", "vp": 2}, {"id": "lancaster-carlisle", "name": "Lancaster & Carlisle", "vp": 2}, {"id": "manchester-leeds", "name": "Manchester & Leeds", "vp": 2}, {"id": "north-midland", "name": "North Midland", "vp": 2}, {"id": "chester-holyhead", "name": "Chester & Holyhead", "vp": 2}, {"id": "south-wales", "name": "South Wales", "vp": 2}, {"id": "west-of-england", "name": "Bristol to Plymouth", "vp": 3}, {"id": "cornwall", "name": "Cornwall", "vp": 2}];
